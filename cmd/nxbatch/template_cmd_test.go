package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/nxbatch/nxbatch/sandbox"
)

func testEnv(stdout, stderr *bytes.Buffer) *env {
	return &env{ctx: context.Background(), stdout: stdout, stderr: stderr, getenv: func(string) string { return "" },
		log: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

// TestTemplateRunsCleanly makes the venta template from the embedded
// sandbox, fills one sale from its drop-downs, and runs it against the
// sandbox: the row must come back ok. The same sale with a bank account
// typed past the list is caught by validate.
func TestTemplateRunsCleanly(t *testing.T) {
	dir := t.TempDir()
	jr := filepath.Join(dir, "state", "journal")
	book := filepath.Join(dir, "venta.xlsx")
	var out, errOut bytes.Buffer
	if err := run(testEnv(&out, &errOut), []string{"template", "venta", "--sandbox", "-o", book, "--journal", jr}); err != nil {
		t.Fatalf("template: %v\n%s", err, errOut.String())
	}
	if !strings.Contains(out.String(), "plantilla de venta escrita") {
		t.Errorf("stdout = %q", out.String())
	}

	f, err := excelize.OpenFile(book)
	if err != nil {
		t.Fatal(err)
	}
	dvs, err := f.GetDataValidations("venta")
	if err != nil || len(dvs) < 3 {
		t.Fatalf("data validations = %d, %v; want the drop-downs", len(dvs), err)
	}
	header, _ := f.GetRows("venta")
	col := map[string]string{}
	for i, h := range header[0] {
		n, _ := excelize.ColumnNumberToName(i + 1)
		col[h] = n
	}
	account, _ := f.GetCellValue("Listas", "C2") // the first bank account: lists are medioPago.tipo, then cuentaBancariaId
	set := func(row string, values map[string]any) {
		for k, v := range values {
			if err := f.SetCellValue("venta", col[k]+row, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	sale := map[string]any{"ordenId": 880001, "entidadId": 500, "subtotal": 2000, "descuento": 0, "recargo": 0,
		"envio": 0, "total": 2000, "medioPago.tipo": "DEPOSITO_BANCO", "medioPago.cuentaBancariaId": account,
		"productos.articuloId": 105, "productos.precio": 1000, "productos.cantidad": 2}
	set("2", sale)
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	out.Reset()
	errOut.Reset()
	if err := run(testEnv(&out, &errOut), []string{"run", "--sandbox", "--journal", jr, "--no-xlsx", book}); err != nil {
		t.Fatalf("run: %v (exit %d)\n%s\n%s", err, exitCode(err), out.String(), errOut.String())
	}
	report, err := os.ReadFile(filepath.Join(dir, "venta.result.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(report), ";ok;enviado y aceptado por la API;") {
		t.Errorf("report does not say ok:\n%s", report)
	}

	bad := filepath.Join(dir, "mal.xlsx")
	f, err = excelize.OpenFile(book)
	if err != nil {
		t.Fatal(err)
	}
	sale["ordenId"], sale["medioPago.cuentaBancariaId"] = 880002, 99
	set("2", sale)
	if err := f.SaveAs(bad); err != nil {
		t.Fatal(err)
	}
	f.Close()
	catDir := filepath.Join(dir, "cat") + string(filepath.Separator)
	if err := run(testEnv(&out, &errOut), []string{"catalog", "export", "--sandbox", "--offline", "--journal", jr, catDir}); err != nil {
		t.Fatalf("catalog export: %v\n%s", err, errOut.String())
	}
	err = run(testEnv(&out, &errOut), []string{"validate", "--catalog", catDir, "--no-xlsx", bad})
	if exitCode(err) != exitRowProblems {
		t.Fatalf("validate exit = %d (%v), want %d", exitCode(err), err, exitRowProblems)
	}
	report, _ = os.ReadFile(filepath.Join(dir, "mal.result.csv"))
	if !strings.Contains(string(report), "medioPago.cuentaBancariaId 99 no existe en los catálogos de la empresa; valores válidos: 10 (Banco Nación CC), 11 (Galicia CA)") {
		t.Errorf("validate report lacks the valid ids:\n%s", report)
	}
}

func TestCatalogPullShowsWhatWasSkipped(t *testing.T) {
	dir := t.TempDir()
	jr := filepath.Join(dir, "journal")
	var out, errOut bytes.Buffer
	// The embedded sandbox answers medios-pago in-process, without the
	// window; depositos takes it, and puntos-venta finds it closed.
	if err := run(testEnv(&out, &errOut), []string{"catalog", "pull", "--sandbox", "--journal", jr, "--only", "medios-pago,depositos,puntos-venta"}); err != nil {
		t.Fatalf("pull: %v\n%s", err, errOut.String())
	}
	for _, want := range []string{"medios-pago: tomado del sandbox embebido", "depositos: actualizado desde la API",
		"puntos-venta: no se consultó (la API permite una consulta de parámetros por minuto", "nxbatch catalog pull --only puntos-venta"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("pull output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := run(testEnv(&out, &errOut), []string{"catalog", "show", "--sandbox", "--offline", "--journal", jr}); err != nil {
		t.Fatalf("show: %v", err)
	}
	for _, want := range []string{"10  Banco Nación CC", "todavía no se consultó: ejecute nxbatch catalog pull --only puntos-venta"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("show output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestCatalogPullRefusedToken: a token the API refuses stops `catalog pull`
// with the aborted exit code (a nightly job must not take it for a pull that
// merely waited) and says to check the token, without suggesting to pull
// again with the same token.
func TestCatalogPullRefusedToken(t *testing.T) {
	srv, err := sandbox.Start(sandbox.DemoData(), sandbox.Options{}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	jr := filepath.Join(dir, "journal")
	tok := filepath.Join(dir, "token")
	if err := os.WriteFile(tok, []byte("not-the-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	err = run(testEnv(&out, &errOut), []string{"catalog", "pull", "--base-url", srv.URL, "--token-file", tok, "--journal", jr})
	if exitCode(err) != exitAborted {
		t.Fatalf("exit = %d (%v), want %d\n%s", exitCode(err), err, exitAborted, out.String())
	}
	text := out.String() + errOut.String() + fmt.Sprint(err)
	if !strings.Contains(strings.ToLower(text), "revise nx_token o --token-file") {
		t.Errorf("output does not say to check the token:\n%s", text)
	}
	if strings.Contains(text, "Para traer lo que faltó") {
		t.Errorf("output suggests pulling again with the refused token:\n%s", text)
	}
}
