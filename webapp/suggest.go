package webapp

import (
	"context"
	"strings"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/readers"
	"github.com/nxbatch/nxbatch/schema"
)

// Suggestions from the article catalog: on the column screen, a column
// whose name says nothing but whose values are mostly the shop's article
// codes or barcodes (the catalog's copy the page already holds, never a
// read of the API) is proposed as the code or barcode column, with how
// many of its values the catalog knows.

// sampleRows is how many rows of a file the column screen looks at to
// recognise the catalog's codes.
const sampleRows = 200

// catalogHit is a column recognised from its values.
type catalogHit struct {
	path        string
	known, seen int
}

// columnValues reads up to n data rows of the upload's first data sheet,
// under its header at spreadsheet row row (fileHeader's).
func (s *Server) columnValues(u *upload, row, n int) [][]string {
	release, err := s.parsing.acquire(context.Background())
	if err != nil {
		return nil
	}
	defer release()
	rf, err := readers.Open(u.current(), readers.Options{HeaderRow: row})
	if err != nil {
		return nil
	}
	defer rf.Close()
	for _, name := range rf.Sheets() {
		if rf.Hidden(name) || schema.IsTemplateSheet(name) {
			continue
		}
		sr, err := rf.Sheet(name)
		if err != nil {
			continue
		}
		var out [][]string
		for len(out) < n {
			rec, err := sr.Next()
			if err != nil {
				break
			}
			out = append(out, append([]string(nil), rec.Cells...))
		}
		sr.Close()
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// catalogColumns finds, among the columns of header that the names left
// unproposed (free), those whose values are mostly the catalog's codes or
// barcodes, for kind k (its code and barcode fields, when it has them).
func (s *Server) catalogColumns(ctx context.Context, u *upload, k schema.Kind, header []string, row int, free func(int) bool) map[int]catalogHit {
	prefix := "productos."
	if k == schema.Stock {
		prefix = "articulos."
	}
	codeField, barField := prefix+"codigo", prefix+"codigoBarras"
	if _, ok := k.Column(codeField); !ok {
		return nil
	}
	any := false
	for i := range header {
		any = any || free(i)
	}
	if !any {
		return nil
	}
	recs, fetched := s.articleCopy(ctx)
	if fetched.IsZero() || len(recs) == 0 {
		return nil
	}
	codes, bars := map[string]bool{}, map[string]bool{}
	for _, r := range recs {
		if r.Eliminado {
			continue
		}
		if c := strings.ToUpper(strings.TrimSpace(r.Codigo)); c != "" {
			codes[c] = true
		}
		if b := strings.TrimSpace(r.CodigoBarras); b != "" {
			bars[b] = true
		}
	}
	rows := s.columnValues(u, row, sampleRows)
	out := map[int]catalogHit{}
	taken := map[string]bool{}
	for i := range header {
		if !free(i) {
			continue
		}
		var seen, code, bar int
		for _, row := range rows {
			if i >= len(row) {
				continue
			}
			v := strings.TrimSpace(row[i])
			if v == "" {
				continue
			}
			seen++
			if codes[strings.ToUpper(v)] {
				code++
			}
			if bars[v] {
				bar++
			}
		}
		// Mostly: more than half of the values the column holds.
		switch {
		case seen > 0 && bar*2 > seen && bar >= code && !taken[barField]:
			out[i], taken[barField] = catalogHit{barField, bar, seen}, true
		case seen > 0 && code*2 > seen && !taken[codeField]:
			out[i], taken[codeField] = catalogHit{codeField, code, seen}, true
		}
	}
	return out
}

// text says why a column was proposed from the catalog.
func (h catalogHit) text(l msg.Lang) string {
	key := "web.columns.fromcatalog.code"
	if strings.HasSuffix(h.path, "codigoBarras") {
		key = "web.columns.fromcatalog.barcode"
	}
	return counted(msg.New(key, h.known, h.seen), l).In(l)
}
