package pipeline

import (
	"encoding/binary"
	"unsafe"

	"github.com/nxbatch/nxbatch/cell"
)

// chunkSize is the arena's allocation unit. Fixed chunks (not one growing
// slice) keep peak memory near the data size: nothing is ever copied to grow.
const chunkSize = 1 << 20

// rowStore keeps every input row's cells in a compact arena: each cell is a
// uvarint of its length shifted left by kindBits, with its kind in the low
// bits, followed by its bytes. A 1,000,000-row file costs about its own size
// plus 12 bytes a row, instead of a string header per cell, and a cell's kind
// (number, date, text...) costs nothing more than its length already did for
// the short cells of a narrow file.
type rowStore struct {
	chunks [][]byte
	// refs holds the rows' references in fixed blocks of refBlock: a
	// growing slice would copy every reference at each doubling (and hold
	// both copies at once) on the way to a million rows.
	refs [][]rowRef
	n    int
	// rewritten counts the bytes of rows written again by WithCells since
	// the store was last laid out whole (their former bytes stay behind).
	rewritten int
}

// refBits sets refBlock, the rows' references per block (64Ki, 768 KiB).
const refBits = 16

const refBlock = 1 << refBits

// ref returns row i's reference.
func (s *rowStore) ref(i int) rowRef { return s.refs[i>>refBits][i&(refBlock-1)] }

type rowRef struct {
	chunk uint32
	off   uint32
	row   int32 // spreadsheet row number
}

// kindBits is how many low bits of a cell's length prefix hold its kind.
const kindBits = 3

// add appends one row; kinds is aligned with cells, or nil when every cell
// is text.
func (s *rowStore) add(row int, cells []string, kinds []cell.Kind) {
	need := 0
	for _, c := range cells {
		need += binary.MaxVarintLen64 + len(c)
	}
	if len(s.chunks) == 0 || cap(s.chunks[len(s.chunks)-1])-len(s.chunks[len(s.chunks)-1]) < need {
		size := chunkSize
		if need > size {
			size = need
		}
		s.chunks = append(s.chunks, make([]byte, 0, size))
	}
	ci := len(s.chunks) - 1
	buf := s.chunks[ci]
	if s.n&(refBlock-1) == 0 {
		// The first block grows as a slice does (a small sheet stays
		// small); the later ones are made whole.
		c := refBlock
		if s.n == 0 {
			c = 64
		}
		s.refs = append(s.refs, make([]rowRef, 0, c))
	}
	bi := len(s.refs) - 1
	s.refs[bi] = append(s.refs[bi], rowRef{chunk: uint32(ci), off: uint32(len(buf)), row: int32(row)})
	s.n++
	for i, c := range cells {
		k := cell.Text
		if kinds != nil && i < len(kinds) && c != "" {
			k = kinds[i]
		}
		buf = binary.AppendUvarint(buf, uint64(len(c))<<kindBits|uint64(k))
		buf = append(buf, c...)
	}
	s.chunks[ci] = buf
}

// len returns the number of rows.
func (s *rowStore) len() int { return s.n }

// rowNumber returns the spreadsheet row number of row i.
func (s *rowStore) rowNumber(i int) int { return int(s.ref(i).row) }

// next decodes the cell at the start of buf: its text, its kind and the rest
// of buf. The text points into the arena, which is never modified after a
// row is added, so it stays valid for the store's lifetime without a copy.
func next(buf []byte) (string, cell.Kind, []byte) {
	v, w := binary.Uvarint(buf)
	buf = buf[w:]
	l, k := int(v>>kindBits), cell.Kind(v&(1<<kindBits-1))
	if l == 0 {
		return "", cell.Empty, buf
	}
	return unsafe.String(&buf[0], l), k, buf[l:]
}

// cells decodes row i into dst (reused) with n cells.
func (s *rowStore) cells(i, n int, dst []string) []string {
	dst = dst[:0]
	r := s.ref(i)
	buf := s.chunks[r.chunk][r.off:]
	var c string
	for range n {
		c, _, buf = next(buf)
		dst = append(dst, c)
	}
	return dst
}

// cellsKinds decodes row i's n cells and their kinds in one pass, into
// dst and kdst (reused).
func (s *rowStore) cellsKinds(i, n int, dst []string, kdst []cell.Kind) ([]string, []cell.Kind) {
	dst, kdst = dst[:0], kdst[:0]
	r := s.ref(i)
	buf := s.chunks[r.chunk][r.off:]
	for range n {
		// next, written out for the common prefix of one byte (a cell
		// under 16 bytes): reports decode every cell of every row.
		v, w := uint64(buf[0]), 1
		if v >= 0x80 {
			v, w = binary.Uvarint(buf)
		}
		buf = buf[w:]
		l := int(v >> kindBits)
		if l == 0 {
			dst, kdst = append(dst, ""), append(kdst, cell.Empty)
			continue
		}
		dst, kdst = append(dst, unsafe.String(&buf[0], l)), append(kdst, cell.Kind(v&(1<<kindBits-1)))
		buf = buf[l:]
	}
	return dst, kdst
}

// kinds decodes the kinds of row i's n cells into dst (reused).
func (s *rowStore) kinds(i, n int, dst []cell.Kind) []cell.Kind {
	dst = dst[:0]
	r := s.ref(i)
	buf := s.chunks[r.chunk][r.off:]
	var k cell.Kind
	for range n {
		_, k, buf = next(buf)
		dst = append(dst, k)
	}
	return dst
}

// cell returns cell col of row i, and its kind, without decoding the others
// after it.
func (s *rowStore) cell(i, col int) (string, cell.Kind) {
	r := s.ref(i)
	buf := s.chunks[r.chunk][r.off:]
	for k := 0; ; k++ {
		c, kind, rest := next(buf)
		if k == col {
			return c, kind
		}
		buf = rest
	}
}

// text returns the text of cell col of row i.
func (s *rowStore) text(i, col int) string {
	c, _ := s.cell(i, col)
	return c
}
