package plantilla

import (
	"cmp"
	"slices"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/schema"
)

// ArticlesSheet is the sheet listing the article catalog, one row per
// active variant: code, name, size, colour and barcode.
const ArticlesSheet = schema.ArticlesSheet

// articlePrefixes are the line prefixes whose rows name an article, the
// sale's products and the stock movement's articles.
var articlePrefixes = []string{"productos", "articulos"}

// NeedsArticulos reports whether a template of kind k lists the article
// catalog (its rows name articles by code): then Options.Articulos gives
// it an «Artículos» sheet.
func NeedsArticulos(k schema.Kind) bool { return hasArticles(k) }

// hasArticles reports whether kind k names articles by code.
func hasArticles(k schema.Kind) bool {
	for _, c := range k.Columns() {
		for _, p := range articlePrefixes {
			if c.Path == p+".codigo" {
				return true
			}
		}
	}
	return false
}

// activeVariants returns the catalog's records that can be sold or moved
// (not deactivated), with trimmed codes, ordered by code: how a person
// looks an article up on the sheet.
func activeVariants(recs []nxapi.ArticuloConCurva) []nxapi.ArticuloConCurva {
	out := make([]nxapi.ArticuloConCurva, 0, len(recs))
	for _, r := range recs {
		if r.Eliminado {
			continue
		}
		r.Codigo = strings.TrimSpace(r.Codigo)
		r.CodigoBarras = strings.TrimSpace(r.CodigoBarras)
		out = append(out, r)
	}
	slices.SortStableFunc(out, func(a, b nxapi.ArticuloConCurva) int { return cmp.Compare(a.Codigo, b.Codigo) })
	return out
}

// articleName is the name a record shows: its name, else its description.
func articleName(r nxapi.ArticuloConCurva) string {
	return strings.TrimSpace(cmp.Or(r.Nombre, r.Descripcion, r.DescripcionWeb))
}

// articleLists are the drop-downs of kind k's article code and barcode
// columns: the catalog's distinct codes and barcodes. They only warn on a
// value off the list: the catalog may have gained an article since the
// template was made, and validate checks every code against the current
// one anyway.
func articleLists(k schema.Kind, o Options) []list {
	cols := map[string]bool{}
	for _, c := range k.Columns() {
		cols[c.Path] = true
	}
	known := !o.ArticulosFetched.IsZero()
	var vars []nxapi.ArticuloConCurva
	if known {
		vars = activeVariants(o.Articulos)
	}
	var codes, codeLabels, bars, barLabels []string
	seenCode, seenBar := map[string]bool{}, map[string]bool{}
	for _, v := range vars {
		if v.Codigo != "" && !seenCode[v.Codigo] {
			seenCode[v.Codigo] = true
			codes = append(codes, v.Codigo)
			codeLabels = append(codeLabels, v.Codigo+" — "+articleName(v))
		}
		if v.CodigoBarras != "" && !seenBar[v.CodigoBarras] {
			seenBar[v.CodigoBarras] = true
			bars = append(bars, v.CodigoBarras)
			label := v.CodigoBarras + " — " + articleName(v)
			if d := variantText(v); d != "" {
				label += " (" + d + ")"
			}
			barLabels = append(barLabels, label)
		}
	}
	var out []list
	for _, p := range articlePrefixes {
		if !cols[p+".codigo"] {
			continue
		}
		cl := list{column: p + ".codigo", title: msg.New("tpla.title.codigo").In(lang), known: known,
			values: codes, labels: codeLabels, hint: msg.New("tpla.prompt.codigo", len(codes)), errText: msg.New("tpla.error.codigo")}
		bl := list{column: p + ".codigoBarras", title: msg.New("tpla.title.barras").In(lang), known: known,
			values: bars, labels: barLabels, hint: msg.New("tpla.prompt.barras", len(bars)), errText: msg.New("tpla.error.barras")}
		if !known {
			cl.note, bl.note = msg.New("tpla.unknown"), msg.New("tpla.unknown")
		}
		out = append(out, cl)
		if cols[bl.column] {
			out = append(out, bl)
		}
	}
	return out
}

// variantText is a variant's size and colour, "M · Rojo".
func variantText(v nxapi.ArticuloConCurva) string {
	var parts []string
	if t := strings.TrimSpace(cmp.Or(v.TalleNombre, v.TalleCodigo)); t != "" {
		parts = append(parts, t)
	}
	if c := strings.TrimSpace(cmp.Or(v.ColorNombre, v.ColorCodigo)); c != "" {
		parts = append(parts, c)
	}
	return strings.Join(parts, " · ")
}

// writeArticles writes the «Artículos» sheet, streamed: a shop's catalog
// has tens of thousands of variants.
func (b *builder) writeArticles() error {
	if _, err := b.f.NewSheet(ArticlesSheet); err != nil {
		return err
	}
	bold, err := b.f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true},
		Fill:   excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{OptionalFill}},
		Border: []excelize.Border{{Type: "bottom", Color: "000000", Style: 1}}})
	if err != nil {
		return err
	}
	sw, err := b.f.NewStreamWriter(ArticlesSheet)
	if err != nil {
		return err
	}
	for i, w := range []float64{18, 45, 12, 16, 18} {
		if err := sw.SetColWidth(i+1, i+1, w); err != nil {
			return err
		}
	}
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return err
	}
	var header []any
	for _, k := range []string{"tpla.h.codigo", "tpla.h.nombre", "tpla.h.talle", "tpla.h.color", "tpla.h.barras"} {
		header = append(header, excelize.Cell{StyleID: bold, Value: msg.New(k).In(lang)})
	}
	if err := sw.SetRow("A1", header); err != nil {
		return err
	}
	row := 2
	for _, v := range activeVariants(b.opts.Articulos) {
		cell, _ := excelize.CoordinatesToCellName(1, row)
		// Every value is text: codes and barcodes keep their leading
		// zeros and long digits.
		if err := sw.SetRow(cell, []any{v.Codigo, articleName(v), strings.TrimSpace(cmp.Or(v.TalleNombre, v.TalleCodigo)),
			strings.TrimSpace(cmp.Or(v.ColorNombre, v.ColorCodigo)), v.CodigoBarras}); err != nil {
			return err
		}
		row++
	}
	return sw.Flush()
}
