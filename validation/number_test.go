package validation

import (
	"math"
	"testing"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
)

func TestAmountAndQuantity(t *testing.T) {
	tests := []struct {
		in       string
		es, en   string // as Amount
		qes, qen string // as Quantity
	}{
		{"0", "0,00", "0.00", "0", "0"},
		{"1210", "1.210,00", "1210.00", "1.210", "1210"},
		{"999", "999,00", "999.00", "999", "999"},
		{"1000000", "1.000.000,00", "1000000.00", "1.000.000", "1000000"},
		{"1234567.891", "1.234.567,891", "1234567.891", "1.234.567,891", "1234567.891"},
		{"0.5", "0,50", "0.50", "0,5", "0.5"},
		{"0.0001", "0,0001", "0.0001", "0,0001", "0.0001"},
		{"-1234.5", "-1.234,50", "-1234.50", "-1.234,5", "-1234.5"},
		{"123456789012345.6789", "123.456.789.012.345,6789", "123456789012345.6789", "123.456.789.012.345,6789", "123456789012345.6789"},
	}
	for _, tt := range tests {
		d := *dec(tt.in)
		if got := Amount(d).In(msg.ES); got != tt.es {
			t.Errorf("Amount(%s).In(ES) = %q, want %q", tt.in, got, tt.es)
		}
		if got := Amount(d).In(msg.EN); got != tt.en {
			t.Errorf("Amount(%s).In(EN) = %q, want %q", tt.in, got, tt.en)
		}
		if got := Amount(d).String(); got != tt.es {
			t.Errorf("Amount(%s).String() = %q, want the Spanish %q", tt.in, got, tt.es)
		}
		if got := Quantity(d).In(msg.ES); got != tt.qes {
			t.Errorf("Quantity(%s).In(ES) = %q, want %q", tt.in, got, tt.qes)
		}
		if got := Quantity(d).In(msg.EN); got != tt.qen {
			t.Errorf("Quantity(%s).In(EN) = %q, want %q", tt.in, got, tt.qen)
		}
	}
	if got, want := Amount(nxapi.Decimal(math.MinInt64)).In(msg.EN), "-922337203685477.5808"; got != want {
		t.Errorf("smallest Decimal = %q, want %q", got, want)
	}
}

func TestLocalizeKeepsOtherArguments(t *testing.T) {
	m := msg.New("val.amount.negative", "envio", Amount(*dec("-1500.5")))
	tests := []struct {
		lang msg.Lang
		want string
	}{
		{msg.ES, "envio vale -1.500,50: no puede ser negativo; escriba un importe de 0 o más"},
		{msg.EN, "envio is -1500.50: it cannot be negative; write an amount of 0 or more"},
	}
	for _, tt := range tests {
		if got := Localize(m, tt.lang).In(tt.lang); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.lang, got, tt.want)
		}
	}
	if _, ok := m.Args[1].(Amount); !ok {
		t.Error("Localize changed the message it was given")
	}
}
