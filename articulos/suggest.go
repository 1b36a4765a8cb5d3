package articulos

import (
	"cmp"
	"slices"
)

// maxSuggestions is how many close codes an unknown code is offered.
const maxSuggestions = 3

// maxMemo bounds how many unknown codes' suggestions are remembered.
const maxMemo = 100_000

// Suggest returns up to three active articles whose codes are closest to
// code (by edit distance, without regard to case), closest first. Only
// near misses count: one edit for codes of up to four characters, two
// for longer ones.
func (ix *Index) Suggest(code string) []Candidate {
	q := foldCode(code)
	if v, ok := ix.suggest.Load(q); ok {
		return v.([]Candidate)
	}
	limit := 1
	if len(q) > 4 {
		limit = 2
	}
	type scored struct {
		d int
		a int32
	}
	var best []scored
	fm, fd := ix.folded()
	for k, v := range fm {
		if k == q || abs(len(k)-len(q)) > limit {
			continue
		}
		d := distance(q, k, limit)
		if d > limit {
			continue
		}
		ids := []int32{v}
		if v < 0 {
			ids = fd[-1-v]
		}
		for _, a := range ids {
			if !ix.arts[a].Eliminado {
				best = append(best, scored{d, a})
			}
		}
	}
	slices.SortFunc(best, func(x, y scored) int {
		if c := cmp.Compare(x.d, y.d); c != 0 {
			return c
		}
		if c := cmp.Compare(ix.arts[x.a].Codigo, ix.arts[y.a].Codigo); c != 0 {
			return c
		}
		return cmp.Compare(ix.arts[x.a].ID, ix.arts[y.a].ID)
	})
	out := []Candidate{}
	for _, s := range best[:min(len(best), maxSuggestions)] {
		A := ix.arts[s.a]
		out = append(out, Candidate{ArticuloID: A.ID, Codigo: A.Codigo, Nombre: A.Nombre})
	}
	if ix.memo.Add(1) <= maxMemo {
		ix.suggest.Store(q, out)
	}
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// distance is the Levenshtein distance between a and b (bytes), or any
// value above limit once it is certain to exceed it.
func distance(a, b string, limit int) int {
	if len(a) > len(b) {
		a, b = b, a
	}
	var buf [2][65]int
	if len(a)+1 > len(buf[0]) {
		return limit + 1 // codes are short; a long one is no near miss
	}
	prev, cur := buf[0][:len(a)+1], buf[1][:len(a)+1]
	for i := range prev {
		prev[i] = i
	}
	for j := 1; j <= len(b); j++ {
		cur[0] = j
		rowMin := cur[0]
		for i := 1; i <= len(a); i++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[i] = min(prev[i]+1, cur[i-1]+1, prev[i-1]+cost)
			rowMin = min(rowMin, cur[i])
		}
		if rowMin > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(a)]
}
