package webapp

import (
	"cmp"
	"context"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
)

// articlesPage is how many variants one page of the article catalog's
// search shows: a shop's catalog has 100,000, never one table.
const articlesPage = 50

// articlesView is the article catalog on the catalogs page: its age, a
// search by code, name or barcode, and one page of its variants.
type articlesView struct {
	Known      bool
	Age        string
	Note       string
	Query      string
	Count      string
	Header     []string
	Rows       [][]string
	Prev, Next string
	PageText   string
}

// articleCopy is the tenant's article catalog as the page lists it and the
// templates carry it: the cached copy, or the embedded sandbox's (read in
// process, taking no window); zero fetched when there is none. The page
// never asks the API for it: that takes the 10-minute masses window, which
// a send needs.
func (s *Server) articleCopy(ctx context.Context) ([]nxapi.ArticuloConCurva, time.Time) {
	cache := s.catalogCache(nil)
	cache.Events = s.cfg.Backend.Session.ArticleEvents()
	o := catalog.ArticulosOptions{}
	if cache.Local == nil {
		// Only a copy there is, whatever its age, with what listen
		// received since: never a read of the API.
		if cp, err := cache.LoadArticulos(); err != nil || cp.Fetched.IsZero() {
			return nil, time.Time{}
		}
		o.MaxAge = math.MaxInt64
	}
	recs, fetched, err := cache.Articulos(ctx, o)
	if err != nil {
		return nil, time.Time{}
	}
	return recs, fetched
}

// articlesData builds the article catalog's section for the request's
// query (q: the search, ap: the page).
func (s *Server) articlesData(r *http.Request, l msg.Lang) *articlesView {
	recs, fetched := s.articleCopy(r.Context())
	page, _ := strconv.Atoi(r.URL.Query().Get("ap"))
	return listArticles(recs, fetched, r.URL.Query().Get("q"), page, s.now(), l)
}

// listArticles is page `page` (from 1; out of range is the nearest) of the
// variants of recs that match the search q.
func listArticles(recs []nxapi.ArticuloConCurva, fetched time.Time, q string, page int, now time.Time, l msg.Lang) *articlesView {
	d := &articlesView{Query: strings.TrimSpace(q)}
	if fetched.IsZero() {
		d.Age = msg.New("web.catalogs.never").In(l)
		d.Note = msg.New("web.arts.none").In(l)
		return d
	}
	d.Known = true
	d.Age = msg.New("web.catalogs.age", ago(now, fetched, l)).In(l)
	for _, k := range []string{"tpla.h.codigo", "tpla.h.nombre", "tpla.h.talle", "tpla.h.color", "tpla.h.barras", "web.arts.state"} {
		d.Header = append(d.Header, msg.New(k).In(l))
	}
	match := matcher(d.Query)
	var found []nxapi.ArticuloConCurva
	for _, rec := range recs {
		if match(rec) {
			found = append(found, rec)
		}
	}
	byCode := func(a, b nxapi.ArticuloConCurva) int {
		return cmp.Compare(strings.TrimSpace(a.Codigo), strings.TrimSpace(b.Codigo))
	}
	if !slices.IsSortedFunc(found, byCode) {
		slices.SortStableFunc(found, byCode)
	}
	pages := max(1, (len(found)+articlesPage-1)/articlesPage)
	page = min(max(page, 1), pages)
	for _, rec := range found[(page-1)*articlesPage : min(page*articlesPage, len(found))] {
		state := msg.New("web.arts.active").In(l)
		if rec.Eliminado {
			state = msg.New("web.arts.eliminado").In(l)
		}
		d.Rows = append(d.Rows, []string{strings.TrimSpace(rec.Codigo), cmp.Or(rec.Nombre, rec.Descripcion),
			cmp.Or(rec.TalleNombre, rec.TalleCodigo), cmp.Or(rec.ColorNombre, rec.ColorCodigo), rec.CodigoBarras, state})
	}
	m := msg.Count("web.arts.count", len(recs))
	if d.Query != "" {
		m = msg.Count("web.arts.found", len(found), len(recs))
	}
	d.Count = counted(m, l).In(l)
	d.PageText = msg.New("web.table.page", page, pages).In(l)
	link := func(p int) string {
		v := url.Values{}
		if d.Query != "" {
			v.Set("q", d.Query)
		}
		v.Set("ap", strconv.Itoa(p))
		return "/catalogs?" + v.Encode() + "#articulos"
	}
	if page > 1 {
		d.Prev = link(page - 1)
	}
	if page < pages {
		d.Next = link(page + 1)
	}
	return d
}

// matcher returns whether a variant matches the search q: its code, name
// or barcode contains q, without regard to case or accents; every variant
// when q is empty.
func matcher(q string) func(nxapi.ArticuloConCurva) bool {
	q = fold(q)
	if q == "" {
		return func(nxapi.ArticuloConCurva) bool { return true }
	}
	return func(r nxapi.ArticuloConCurva) bool {
		return strings.Contains(fold(r.Codigo), q) || strings.Contains(fold(r.Nombre), q) ||
			strings.Contains(fold(r.Descripcion), q) || strings.Contains(r.CodigoBarras, q)
	}
}

// fold lowers s and strips its accents ("Pantalón" → "pantalon"). It
// runs over every record of a 100,000-variant catalog per search, so the
// letters of Spanish and Portuguese are mapped directly; any other mark
// goes through Unicode decomposition.
func fold(s string) string {
	s = strings.TrimSpace(s)
	plain := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || (c >= 'A' && c <= 'Z') {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r < 0x80 {
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		if m, ok := accents[unicode.ToLower(r)]; ok {
			b.WriteRune(m)
			continue
		}
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		d := norm.NFD.String(string(unicode.ToLower(r)))
		b.WriteString(strings.Map(func(r rune) rune {
			if unicode.Is(unicode.Mn, r) {
				return -1
			}
			return r
		}, d))
	}
	return b.String()
}

// accents maps the accented lower-case letters a shop's names use to their
// plain letters.
var accents = map[rune]rune{'á': 'a', 'à': 'a', 'â': 'a', 'ã': 'a', 'ä': 'a', 'é': 'e', 'è': 'e', 'ê': 'e', 'ë': 'e',
	'í': 'i', 'ì': 'i', 'î': 'i', 'ï': 'i', 'ó': 'o', 'ò': 'o', 'ô': 'o', 'õ': 'o', 'ö': 'o',
	'ú': 'u', 'ù': 'u', 'û': 'u', 'ü': 'u', 'ñ': 'n', 'ç': 'c'}
