package tenant

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sendrules"
	"github.com/nxbatch/nxbatch/sendrules/sendrulestest"
)

// refusingConfig answers GET /config with the API's "Debe esperar" the
// first refusals times, then with cfg.
type refusingConfig struct {
	refusals int
	wait     time.Duration
	calls    []time.Time
}

func (f *refusingConfig) Config(context.Context) (*nxapi.Config, error) {
	f.calls = append(f.calls, time.Now())
	if len(f.calls) <= f.refusals {
		return nil, &apiclient.WaitError{Wait: f.wait, Message: "Debe esperar 40 segundos entre cada solicitud"}
	}
	return &nxapi.Config{AppID: 3}, nil
}

// TestFetchWaitsOutTheAPIsRefusal: a refusal (another machine, on a
// journal of its own, read inside the window) is waited out as the API
// says, scaled, and asked again, up to maxRefusals times; without Wait, or
// after that, it is a WindowError naming when the API allows it.
func TestFetchWaitsOutTheAPIsRefusal(t *testing.T) {
	tests := []struct {
		name      string
		wait      bool
		refusals  int
		wantErr   bool
		wantCalls int
	}{
		{"one refusal is waited out", true, 1, false, 2},
		{"up to maxRefusals are", true, maxRefusals, false, maxRefusals + 1},
		{"then it gives up", true, maxRefusals + 1, true, maxRefusals + 1},
		{"an impatient resolver does not wait", false, 1, true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				const scale = 0.5
				api := &refusingConfig{refusals: tt.refusals, wait: 40 * time.Second}
				r := &Resolver{Dir: t.TempDir(), Env: sendrules.Production, Read: api, Windows: &sendrulestest.Windows{}, Scale: scale, Wait: tt.wait}
				_, err := r.Resolve(context.Background(), Conn{Origin: "https://x", Binding: "b", Credential: "cred"})
				var we *WindowError
				if gotErr := errors.As(err, &we); gotErr != tt.wantErr || (!gotErr && err != nil) {
					t.Fatalf("Resolve = %v, want a WindowError: %v", err, tt.wantErr)
				}
				if len(api.calls) != tt.wantCalls {
					t.Fatalf("%d calls, want %d", len(api.calls), tt.wantCalls)
				}
				// Each retry came the API's wait, scaled, after the refusal.
				for i := 1; i < len(api.calls); i++ {
					if d := api.calls[i].Sub(api.calls[i-1]); d != 20*time.Second {
						t.Errorf("retry %d came %v after the refusal, want 20s", i, d)
					}
				}
				if we != nil && time.Until(we.Next) != 20*time.Second {
					t.Errorf("WindowError names +%v, want +20s", time.Until(we.Next))
				}
			})
		})
	}
}
