package msg

import (
	"strconv"
	"strings"
	"time"
)

// Duration is a length of time said as a person reads it, in the
// message's language: "3 minutos 5 segundos", "1,5 segundos", "2 hours",
// never Go's "3m5s".
type Duration time.Duration

// In renders d in language l: seconds (with tenths, or hundredths under
// ten seconds) below a minute, then minutes and seconds, then hours and
// minutes.
func (d Duration) In(l Lang) string {
	t := time.Duration(d)
	if t < 0 {
		t = 0
	}
	if t >= time.Minute {
		t = t.Round(time.Second) // so that 59:59.6 is an hour, not 60 minutes
	}
	switch {
	case t < 10*time.Second:
		return seconds(t, 2, l)
	case t < time.Minute:
		return seconds(t, 1, l)
	case t < time.Hour:
		m, s := int(t/time.Minute), int(t%time.Minute/time.Second)
		return join(Count("dur.min", m).In(l), s, "dur.sec", l)
	}
	h, m := int(t/time.Hour), int((t%time.Hour+time.Minute/2)/time.Minute)
	if m == 60 {
		h, m = h+1, 0
	}
	return join(Count("dur.hour", h).In(l), m, "dur.min", l)
}

// seconds says t in seconds with at most prec decimals (trailing zeros
// dropped), with the language's decimal separator.
func seconds(t time.Duration, prec int, l Lang) string {
	text := strconv.FormatFloat(t.Seconds(), 'f', prec, 64)
	if strings.Contains(text, ".") {
		text = strings.TrimRight(strings.TrimRight(text, "0"), ".")
	}
	key := "dur.sec"
	if text == "1" {
		key += ".one"
	}
	if l != EN {
		text = strings.Replace(text, ".", ",", 1)
	}
	return New(key, text).In(l)
}

// join says a larger unit and, when not zero, n of a smaller one.
func join(first string, n int, key string, l Lang) string {
	if n == 0 {
		return first
	}
	return first + " " + Count(key, n).In(l)
}

func init() {
	register(map[string]Text{
		"dur.sec":      {ES: "%v segundos", EN: "%v seconds"},
		"dur.sec.one":  {ES: "%v segundo", EN: "%v second"},
		"dur.min":      {ES: "%d minutos", EN: "%d minutes"},
		"dur.min.one":  {ES: "%d minuto", EN: "%d minute"},
		"dur.hour":     {ES: "%d horas", EN: "%d hours"},
		"dur.hour.one": {ES: "%d hora", EN: "%d hour"},
	})
}
