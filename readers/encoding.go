package readers

import (
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// Encoding names reported in SheetInfo.Encoding.
const (
	encUTF8    = "utf-8"
	encUTF8BOM = "utf-8-bom"
	encUTF16   = "utf-16"
	enc1252    = "windows-1252"
)

// sniffSize is how much of a file decides its encoding, binary-ness and
// delimiter.
const sniffSize = 64 << 10

var (
	bomUTF8    = []byte{0xEF, 0xBB, 0xBF}
	bomUTF16LE = []byte{0xFF, 0xFE}
	bomUTF16BE = []byte{0xFE, 0xFF}
	magicZip   = []byte("PK\x03\x04")
	magicOLE   = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}
)

// normalizeEncoding maps an Options.Encoding value onto the names the
// reader knows, accepting the usual spellings; ok is false for anything else.
func normalizeEncoding(s string) (string, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "":
		return "", true
	case "utf-8", "utf8":
		return encUTF8, true
	case "windows-1252", "cp1252", "win1252", "latin1", "latin-1", "iso-8859-1", "ansi":
		return enc1252, true
	}
	return "", false
}

// detectEncoding decides how to decode a CSV file from its first bytes
// (head, the whole file when atEOF). A BOM is authoritative, even over
// forced: a file that starts with one says what it is. NUL bytes without a
// UTF-16 BOM mean a binary file. Otherwise forced wins, and without it the
// first non-ASCII text decides: valid UTF-8 means UTF-8, anything else is
// what Excel writes as plain "CSV" in Spanish, Windows-1252. Looking for that
// first non-ASCII text beyond head (r is read from there on) keeps a cp1252
// file whose first accent comes after 64 KB from being read as UTF-8.
func detectEncoding(r io.ReaderAt, head []byte, atEOF bool, forced string) (enc string, bomLen int, binary []byte) {
	switch {
	case bytes.HasPrefix(head, bomUTF8):
		return encUTF8BOM, len(bomUTF8), nil
	case bytes.HasPrefix(head, bomUTF16LE), bytes.HasPrefix(head, bomUTF16BE):
		return encUTF16, 0, nil
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return "", 0, head
	}
	if forced != "" {
		return forced, 0, nil
	}
	if i := firstNonASCII(head); i >= 0 {
		return utf8OrCP1252(head[i:], atEOF), 0, nil
	}
	if atEOF {
		return encUTF8, 0, nil
	}
	// ASCII so far: look further, a chunk at a time.
	buf := make([]byte, sniffSize)
	for off := int64(len(head)); ; {
		n, err := r.ReadAt(buf, off)
		if i := firstNonASCII(buf[:n]); i >= 0 {
			// Re-read from the first non-ASCII byte so the window holds
			// whole runes.
			n, err = r.ReadAt(buf, off+int64(i))
			return utf8OrCP1252(buf[:n], err != nil), 0, nil
		}
		if err != nil {
			return encUTF8, 0, nil
		}
		off += int64(n)
	}
}

// utf8OrCP1252 judges text starting at a rune boundary; when more follows
// (!atEOF) a rune cut by the end of b is not held against it.
func utf8OrCP1252(b []byte, atEOF bool) string {
	if !atEOF {
		for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
			if utf8.RuneStart(b[i]) {
				if !utf8.FullRune(b[i:]) {
					b = b[:i]
				}
				break
			}
		}
	}
	if utf8.Valid(b) {
		return encUTF8
	}
	return enc1252
}

// firstNonASCII returns the index of the first byte >= 0x80, or -1. It
// tests eight bytes at a time: an ASCII-only file is scanned whole.
func firstNonASCII(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if b[i] >= 0x80 {
			return i
		}
	}
	return -1
}

// decoder wraps the file (positioned after any UTF-8 BOM) so that it yields
// UTF-8.
func decoder(f *os.File, enc string) io.Reader {
	switch enc {
	case encUTF16:
		return transform.NewReader(f, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewDecoder())
	case enc1252:
		return charmap.Windows1252.NewDecoder().Reader(f)
	}
	return f
}
