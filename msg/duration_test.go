package msg

import (
	"testing"
	"time"
)

func TestDuration(t *testing.T) {
	tests := []struct {
		d      time.Duration
		es, en string
	}{
		{0, "0 segundos", "0 seconds"},
		{-time.Second, "0 segundos", "0 seconds"},
		{40 * time.Millisecond, "0,04 segundos", "0.04 seconds"},
		{time.Second, "1 segundo", "1 second"},
		{1050 * time.Millisecond, "1,05 segundos", "1.05 seconds"},
		{12*time.Second + 340*time.Millisecond, "12,3 segundos", "12.3 seconds"},
		{30 * time.Second, "30 segundos", "30 seconds"},
		{time.Minute, "1 minuto", "1 minute"},
		{3*time.Minute + 5*time.Second, "3 minutos 5 segundos", "3 minutes 5 seconds"},
		{59*time.Minute + 59*time.Second + 600*time.Millisecond, "1 hora", "1 hour"},
		{2*time.Hour + 61*time.Second, "2 horas 1 minuto", "2 hours 1 minute"},
	}
	for _, tt := range tests {
		if got := Duration(tt.d).In(ES); got != tt.es {
			t.Errorf("%v in Spanish = %q, want %q", tt.d, got, tt.es)
		}
		if got := Duration(tt.d).In(EN); got != tt.en {
			t.Errorf("%v in English = %q, want %q", tt.d, got, tt.en)
		}
	}
}
