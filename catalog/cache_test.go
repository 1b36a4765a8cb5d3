package catalog

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/sendrules/sendrulestest"
)

// TestGet walks the cache's choices for a run that needs both catalogs.
func TestGet(t *testing.T) {
	both := Need{MediosPago: true, Motivos: true}
	tests := []struct {
		name      string
		prepare   func(c *Cache, clk *clock, w *sendrulestest.Windows, api *fakeAPI)
		need      Need
		wantCalls []Name
		wantNotes []string // catalog keys of the notes, in order
		wantMP    bool     // medios-pago available to validation
		wantMot   bool     // motivos available to validation
		wantErr   error
	}{
		{
			name:      "cold cache: the shared window allows one fetch, the other is skipped",
			need:      both,
			wantCalls: []Name{MediosPago},
			wantNotes: []string{"catc.pull.fetched", "cat.unchecked"},
			wantMP:    true,
		},
		{
			name: "fresh cache: nothing is fetched",
			prepare: func(c *Cache, clk *clock, w *sendrulestest.Windows, api *fakeAPI) {
				c.Get(context.Background(), Need{MediosPago: true})
				clk.now = clk.now.Add(2 * time.Minute)
				c.Get(context.Background(), Need{Motivos: true})
				api.calls = nil
				clk.now = clk.now.Add(2 * time.Minute)
			},
			need:    both,
			wantMP:  true,
			wantMot: true,
		},
		{
			name: "stale cache and a closed window: the old copy is used, with its age",
			prepare: func(c *Cache, clk *clock, w *sendrulestest.Windows, api *fakeAPI) {
				c.Get(context.Background(), Need{MediosPago: true})
				api.calls = nil
				clk.now = clk.now.Add(2 * time.Hour)
				w.Set("tenant", WindowName, clk.now.Add(30*time.Second)) // another run just asked
			},
			need:      Need{MediosPago: true},
			wantNotes: []string{"catc.pull.cached"},
			wantMP:    true,
		},
		{
			name: "a 403 window answer moves the window and skips",
			prepare: func(c *Cache, clk *clock, w *sendrulestest.Windows, api *fakeAPI) {
				api.fail = map[Name]error{MediosPago: &apiclient.WaitError{Wait: 45 * time.Second}}
			},
			need:      Need{MediosPago: true},
			wantCalls: []Name{MediosPago},
			wantNotes: []string{"cat.unchecked"},
		},
		{
			name: "a 401 stops: nothing else would be accepted",
			prepare: func(c *Cache, clk *clock, w *sendrulestest.Windows, api *fakeAPI) {
				api.fail = map[Name]error{MediosPago: apiclient.ErrUnauthorized}
			},
			need:      both,
			wantCalls: []Name{MediosPago},
			wantErr:   apiclient.ErrUnauthorized,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := &fakeAPI{}
			c, clk, w := newCache(t, api)
			if tt.prepare != nil {
				tt.prepare(c, clk, w, api)
			}
			cat, notes, err := c.Get(context.Background(), tt.need)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if d := cmp.Diff(tt.wantCalls, api.calls); d != "" {
				t.Errorf("calls (-want +got):\n%s", d)
			}
			var keys []string
			for _, n := range notes {
				keys = append(keys, n.Key)
			}
			if d := cmp.Diff(tt.wantNotes, keys); d != "" {
				t.Errorf("notes (-want +got):\n%s", d)
			}
			if err != nil {
				return
			}
			if got := cat.MediosPago != nil; got != tt.wantMP {
				t.Errorf("medios-pago available = %v, want %v", got, tt.wantMP)
			}
			if got := cat.Motivos != nil; got != tt.wantMot {
				t.Errorf("motivos available = %v, want %v", got, tt.wantMot)
			}
		})
	}
}

func TestGetWaitErrorPushesTheWindow(t *testing.T) {
	api := &fakeAPI{fail: map[Name]error{MediosPago: &apiclient.WaitError{Wait: 45 * time.Second}}}
	c, clk, w := newCache(t, api)
	c.Get(context.Background(), Need{MediosPago: true})
	if got, want := w.Next("tenant", WindowName), clk.now.Add(45*time.Second); !got.Equal(want) {
		t.Errorf("window = %v, want %v", got, want)
	}
}

// TestCacheFileIsOwnerOnly: the cache holds the company's bank accounts
// (CBU, alias), so it is readable by its owner only, also in a folder that
// already existed with looser permissions and over a file written by an
// older version.
func TestCacheFileIsOwnerOnly(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, c *Cache)
	}{
		{name: "new folder"},
		{name: "existing shared folder", prepare: func(t *testing.T, c *Cache) {
			if err := os.MkdirAll(c.Dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "existing readable file", prepare: func(t *testing.T, c *Cache) {
			if err := os.MkdirAll(c.Dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(c.path(), []byte("{}"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _, _ := newCache(t, &fakeAPI{})
			c.Dir = filepath.Join(c.Dir, "catalogs")
			if tt.prepare != nil {
				tt.prepare(t, c)
			}
			if _, _, err := c.Pull(context.Background(), PullOptions{Names: []Name{MediosPago}}); err != nil {
				t.Fatal(err)
			}
			st, err := os.Stat(c.path())
			if err != nil {
				t.Fatal(err)
			}
			if perm := st.Mode().Perm(); perm&0o077 != 0 {
				t.Errorf("cache file mode = %04o, want readable by its owner only", perm)
			}
		})
	}
}
