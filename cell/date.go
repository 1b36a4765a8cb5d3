package cell

import (
	"math"
	"time"
)

// Epochs of the two spreadsheet date systems. In the 1900 system serial 1 is
// 1 January 1900 and Excel counts a 29 February 1900 that never was (serial
// 60, kept for Lotus 1-2-3's sake), so from serial 61 (1 March 1900) on the
// days count from 30 December 1899. In the 1904 system serial 0 is 1
// January 1904.
var (
	epoch1900      = time.Date(1899, time.December, 30, 0, 0, 0, 0, time.UTC)
	epoch1900Early = time.Date(1899, time.December, 31, 0, 0, 0, 0, time.UTC)
	epoch1904      = time.Date(1904, time.January, 1, 0, 0, 0, 0, time.UTC)
	march1900      = time.Date(1900, time.March, 1, 0, 0, 0, 0, time.UTC)
	year10000      = time.Date(10000, time.January, 1, 0, 0, 0, 0, time.UTC)
)

// DateOf returns the date and time (UTC, to the millisecond) of a Date
// cell's serial number in the workbook's date system. ok is false for a
// serial no spreadsheet shows as a date: negative, at or past year 10000,
// not a number, or the 1900 system's fictitious 29 February 1900 (serial
// 60). A serial below 1 is a time of day on day 0, which Excel shows as
// 0 January 1900 and DateOf as 31 December 1899.
func DateOf(serial float64, date1904 bool) (t time.Time, ok bool) {
	if math.IsNaN(serial) || serial < 0 || serial >= 2958466 {
		return time.Time{}, false
	}
	days := math.Floor(serial)
	ms := math.Round((serial - days) * 86_400_000)
	base := epoch1900
	switch {
	case date1904:
		base = epoch1904
	case days < 60:
		base = epoch1900Early
	case days == 60:
		return time.Time{}, false
	}
	t = base.AddDate(0, 0, int(days)).Add(time.Duration(ms) * time.Millisecond)
	if !t.Before(year10000) {
		return time.Time{}, false
	}
	return t, true
}

// SerialOf returns the serial number of t's wall-clock date and time (its
// location is ignored: spreadsheets have no time zones) in the workbook's
// date system, the inverse of DateOf. ok is false before the system's first
// day or from year 10000 on.
func SerialOf(t time.Time, date1904 bool) (serial float64, ok bool) {
	wall := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	base := epoch1900
	switch {
	case date1904:
		base = epoch1904
	case wall.Before(march1900):
		base = epoch1900Early
	}
	if wall.Before(base) || !wall.Before(year10000) {
		return 0, false
	}
	// Seconds, not a time.Duration: eight thousand years overflow one.
	secs := wall.Unix() - base.Unix()
	days := secs / 86400
	rest := float64(secs%86400) + float64(wall.Nanosecond())/1e9
	return float64(days) + rest/86400, true
}
