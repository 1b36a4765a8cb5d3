package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestServeBrowserSettingsCountsAndSuggestions, in Chromium against
// `nxbatch serve --sandbox`: an inventory count's «Faltantes en cero»
// switch turned on in the page and said again in the confirmation before
// anything leaves; the report folder of the scheduled runs chosen in the
// history (created, then shown); a column whose values are the article
// catalog's codes and barcodes proposed as such on the column screen.
// With NXBATCH_SCREENSHOTS set, it also draws those screens for
// docs/serve.md.
func TestServeBrowserSettingsCountsAndSuggestions(t *testing.T) {
	w := newWorkspace(t, "")
	srv := w.serve(t)
	ctx := browser(t)
	count := writeFile(t, w.dir, "conteo.csv", "depositoId,motivoId,fecha,detalle,articulos.articuloId,articulos.cantidadContada\n"+
		"1,1,2026-12-01,Conteo diciembre,105,25\n")
	if err := chromedp.Run(ctx, chromedp.Navigate(srv.login), chromedp.WaitVisible("#file", chromedp.ByID),
		chromedp.SetUploadFiles("#file", []string{count}, chromedp.ByID),
		chromedp.Click("#upload-send", chromedp.ByID), chromedp.WaitVisible("#zero-form", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	if h := text(t, ctx, "#zero-help"); !strings.Contains(h, "Desactivado") {
		t.Errorf("the switch's help before turning it on: %q", h)
	}
	if err := chromedp.Run(ctx, chromedp.Click("#faltantes", chromedp.ByID), chromedp.Click("#zero-save", chromedp.ByID),
		chromedp.WaitVisible("#zero-saved", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	if h := text(t, ctx, "#zero-help"); !strings.Contains(h, "Activado: es un conteo completo") {
		t.Errorf("the switch's help once on: %q", h)
	}
	docShot(t, ctx, "serve-count.png")
	if err := chromedp.Run(ctx, chromedp.Click("#send", chromedp.ByID), chromedp.WaitVisible("#confirm-send", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	if c := text(t, ctx, "main"); !strings.Contains(c, "¿Enviar conteo.csv?") || !strings.Contains(c, "Faltantes en cero está activado") {
		t.Errorf("the count's confirmation says %q", c)
	}
	docShot(t, ctx, "serve-confirm-count.png")
	// Back without sending: nothing left.
	before := len(sandboxState(t, srv.sandbox).Movements)
	if err := chromedp.Run(ctx, chromedp.Click("#confirm-back", chromedp.ByID), chromedp.WaitVisible("#zero-form", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	if after := len(sandboxState(t, srv.sandbox).Movements); after != before {
		t.Errorf("going back from the confirmation sent %d movements", after-before)
	}

	// The report folder of the scheduled runs, chosen in the history.
	dir := filepath.Join(w.dir, "tareas", "informes")
	if err := chromedp.Run(ctx, chromedp.Navigate(srv.url+"/history"), chromedp.WaitVisible("#report-dir", chromedp.ByID),
		chromedp.SendKeys("#report-dir", dir, chromedp.ByID), chromedp.Click("#report-dir-save", chromedp.ByID),
		chromedp.WaitVisible("#settings-saved", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	if s := text(t, ctx, "#report-dir-now"); s != "Carpeta en uso: "+dir {
		t.Errorf("the history shows %q", s)
	}
	docShot(t, ctx, "serve-report-dir.png")

	// A column named by nothing but holding the catalog's codes.
	items := writeFile(t, w.dir, "tienda.csv", "Nro Pedido,Item,Lectura,Cant\n1,A100,7791231000015,1\n2,A101,7791231010014,2\n")
	if err := chromedp.Run(ctx, chromedp.Navigate(srv.url+"/"), chromedp.WaitVisible("#file", chromedp.ByID),
		chromedp.SetUploadFiles("#file", []string{items}, chromedp.ByID),
		chromedp.Click("#upload-send", chromedp.ByID), chromedp.WaitVisible("#col-1-cat", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	var code, bar string
	if err := chromedp.Run(ctx, chromedp.Value("#col-1", &code, chromedp.ByID), chromedp.Value("#col-2", &bar, chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	if code != "productos.codigo" || bar != "productos.codigoBarras" {
		t.Errorf("the column screen proposes %q and %q, want the code and the barcode", code, bar)
	}
	if s := text(t, ctx, "#col-1-cat"); !strings.Contains(s, "2 de 2 son códigos de artículos del catálogo") {
		t.Errorf("the proposal says %q", s)
	}
	docShot(t, ctx, "serve-columns-catalog.png")
}
