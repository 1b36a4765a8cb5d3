package cell

import (
	"math"
	"testing"
	"time"
)

func TestDateOfAndSerialOf(t *testing.T) {
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		name     string
		serial   float64
		date1904 bool
		want     time.Time
		ok       bool
	}{
		{"first day of 1900", 1, false, day(1900, 1, 1), true},
		{"last real day before the fictitious one", 59, false, day(1900, 2, 28), true},
		{"the fictitious 29 February 1900", 60, false, time.Time{}, false},
		{"1 March 1900", 61, false, day(1900, 3, 1), true},
		{"2024-01-01", 45292, false, day(2024, 1, 1), true},
		{"noon", 46346.5, false, time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC), true},
		{"to the millisecond", 45292 + 1.5/86400, false, time.Date(2024, 1, 1, 0, 0, 1, 500e6, time.UTC), true},
		{"1904 system day 0", 0, true, day(1904, 1, 1), true},
		{"1904 system 2024-01-01", 45292 - 1462, true, day(2024, 1, 1), true},
		{"last day Excel shows", 2958465, false, day(9999, 12, 31), true},
		{"past year 9999", 2958466, false, time.Time{}, false},
		{"negative", -1, false, time.Time{}, false},
		{"not a number", math.NaN(), false, time.Time{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := DateOf(tc.serial, tc.date1904)
			if ok != tc.ok || !got.Equal(tc.want) {
				t.Fatalf("DateOf(%v, %v) = %v %v, want %v %v", tc.serial, tc.date1904, got, ok, tc.want, tc.ok)
			}
			if !ok {
				return
			}
			back, ok := SerialOf(got, tc.date1904)
			if !ok || math.Abs(back-tc.serial) > 1e-8 {
				t.Errorf("SerialOf(%v) = %v %v, want %v", got, back, ok, tc.serial)
			}
		})
	}
}

func TestSerialOfIgnoresZoneAndRefusesOutOfRange(t *testing.T) {
	art := time.FixedZone("ART", -3*3600)
	tests := []struct {
		name     string
		t        time.Time
		date1904 bool
		want     float64
		ok       bool
	}{
		{"wall clock, not UTC", time.Date(2024, 1, 1, 21, 0, 0, 0, art), false, 45292.875, true},
		{"before 1900", time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC), false, 0, false},
		{"before 1904 in the 1904 system", time.Date(1903, 12, 31, 0, 0, 0, 0, time.UTC), true, 0, false},
		{"year 10000", time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), false, 0, false},
	}
	for _, tc := range tests {
		got, ok := SerialOf(tc.t, tc.date1904)
		if ok != tc.ok || got != tc.want {
			t.Errorf("%s: SerialOf = %v %v, want %v %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}
