package readers

import (
	"errors"
	"io"
	"unsafe"
)

// sharedStrings is a workbook's table of distinct texts, stored compactly:
// every text back to back in one string (the arena) and the end offset of
// each, 4 bytes an entry, instead of a Go string (16 bytes plus its own
// allocation) per entry. A cell's text is a substring of the arena: no copy.
type sharedStrings struct {
	arena string
	ends  []uint32
}

// len returns the number of texts.
func (t *sharedStrings) len() int {
	if t == nil {
		return 0
	}
	return len(t.ends)
}

// at returns text i; i must be below len().
func (t *sharedStrings) at(i int) string {
	start := uint32(0)
	if i > 0 {
		start = t.ends[i-1]
	}
	return t.arena[start:t.ends[i]]
}

// errSSTCount and errSSTBytes say which limit a table passed.
var (
	errSSTCount = errors.New("too many shared strings")
	errSSTBytes = errors.New("shared strings too large")
)

// readSharedStrings streams sharedStrings.xml. declared is the part's
// uncompressed size from the zip directory, which archive/zip enforces:
// decoded text is never longer than the XML it comes from, so the arena is
// allocated once, at most limits.sharedBytes, and never regrown.
//
// Each <si> is the concatenation of its <t> and of the <t> of its rich text
// runs (<r>); phonetic runs (<rPh>) and run properties are not text. OOXML
// escapes (_x000D_) are decoded.
func readSharedStrings(r io.Reader, declared uint64) (*sharedStrings, error) {
	capacity := min(declared, uint64(limits.sharedBytes)+1)
	arena := make([]byte, 0, capacity)
	var ends []uint32
	sc := newXMLScanner(r, limits.maxTag)
	for {
		tok, err := sc.next()
		if err != nil {
			return nil, err
		}
		if tok == tokEOF {
			break
		}
		if tok != tokStart || string(sc.local) != "si" {
			continue
		}
		if len(ends) >= limits.sharedStrings {
			return nil, errSSTCount
		}
		start := len(arena)
		if arena, err = readSI(sc, arena); err != nil {
			return nil, err
		}
		n := decodeOOXMLEscapes(arena[start:])
		arena = arena[:start+n]
		ends = append(ends, uint32(len(arena)))
	}
	t := &sharedStrings{ends: ends}
	if len(arena) > 0 {
		// The arena is never written again: a string over its bytes is as
		// immutable as any other (the pipeline's row store does the same).
		t.arena = unsafe.String(unsafe.SliceData(arena), len(arena))
	}
	return t, nil
}

// readSI appends the text of one <si> (its start tag just read) to arena.
func readSI(sc *xmlScanner, arena []byte) ([]byte, error) {
	if sc.selfClosing {
		return arena, nil
	}
	for depth := 1; depth > 0; {
		tok, err := sc.next()
		if err != nil {
			return arena, err
		}
		switch {
		case tok == tokEOF:
			return arena, errXMLTruncated
		case tok == tokEnd:
			depth-- // </r> or </si>
		case string(sc.local) == "t":
			room := limits.sharedBytes - len(arena)
			var n int
			if arena, n, err = sc.readText(arena, room); err != nil {
				return arena, err
			}
			if n > room {
				return arena, errSSTBytes
			}
		case string(sc.local) == "r" && depth == 1:
			if !sc.selfClosing {
				depth++
			}
		default: // rPh, rPr, phoneticPr, extensions
			if err := sc.skip(); err != nil {
				return arena, err
			}
		}
	}
	return arena, nil
}
