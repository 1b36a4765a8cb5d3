package pipeline

import (
	"encoding/binary"
	"unsafe"
)

// chunkSize is the arena's allocation unit. Fixed chunks (not one growing
// slice) keep peak memory near the data size: nothing is ever copied to grow.
const chunkSize = 1 << 20

// rowStore keeps every input row's cells in a compact arena: each cell is a
// uvarint length followed by its bytes. A 1,000,000-row file costs about its
// own size plus 12 bytes a row, instead of a string header per cell.
type rowStore struct {
	chunks [][]byte
	refs   []rowRef
}

type rowRef struct {
	chunk uint32
	off   uint32
	row   int32 // spreadsheet row number
}

// add appends one row.
func (s *rowStore) add(row int, cells []string) {
	need := 0
	for _, c := range cells {
		need += binary.MaxVarintLen32 + len(c)
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
	s.refs = append(s.refs, rowRef{chunk: uint32(ci), off: uint32(len(buf)), row: int32(row)})
	for _, c := range cells {
		buf = binary.AppendUvarint(buf, uint64(len(c)))
		buf = append(buf, c...)
	}
	s.chunks[ci] = buf
}

// len returns the number of rows.
func (s *rowStore) len() int { return len(s.refs) }

// rowNumber returns the spreadsheet row number of row i.
func (s *rowStore) rowNumber(i int) int { return int(s.refs[i].row) }

// cells decodes row i into dst (reused) with n cells. The strings point into
// the arena, which is never modified after a row is added, so they stay valid
// for the store's lifetime without a copy.
func (s *rowStore) cells(i, n int, dst []string) []string {
	dst = dst[:0]
	r := s.refs[i]
	buf := s.chunks[r.chunk][r.off:]
	for k := 0; k < n; k++ {
		l, w := binary.Uvarint(buf)
		buf = buf[w:]
		if l == 0 {
			dst = append(dst, "")
			continue
		}
		dst = append(dst, unsafe.String(&buf[0], int(l)))
		buf = buf[l:]
	}
	return dst
}

// cell returns cell col of row i without decoding the others after it.
func (s *rowStore) cell(i, col int) string {
	r := s.refs[i]
	buf := s.chunks[r.chunk][r.off:]
	for k := 0; ; k++ {
		l, w := binary.Uvarint(buf)
		buf = buf[w:]
		if k == col {
			if l == 0 {
				return ""
			}
			return unsafe.String(&buf[0], int(l))
		}
		buf = buf[l:]
	}
}
