package readers

import (
	"archive/zip"
	"compress/flate"
	"errors"
	"fmt"
	"io"

	"github.com/nxbatch/nxbatch/msg"
)

// damage is a cause of a damaged workbook that says itself in the user's
// language: a catalog key and its arguments. Its Error text (English) is
// for logs and tests only.
type damage struct {
	m    msg.Message
	text string
}

func (d *damage) Error() string { return d.text }

// newDamage returns a damage with catalog key and args, and English text.
func newDamage(key, text string, args ...any) *damage {
	return &damage{m: msg.New(key, args...), text: fmt.Sprintf(text, args...)}
}

// why is what went wrong inside a damaged workbook, as a message rendered
// in the language of the sentence it is an argument of: never the library's
// own English ("zip: not a valid zip file").
func why(err error) msg.Message {
	var d *damage
	var ce flate.CorruptInputError
	switch {
	case errors.As(err, &d):
		return d.m
	case errors.Is(err, errXMLTagLong):
		return msg.New("rd.why.taglong", megabytes(int64(limits.maxTag)))
	case errors.Is(err, errXMLDoctype):
		return msg.New("rd.why.doctype")
	case errors.Is(err, errXMLTruncated):
		return msg.New("rd.why.xmltruncated")
	case errors.Is(err, errXMLSyntax):
		return msg.New("rd.why.xmlsyntax")
	case errors.Is(err, zip.ErrFormat):
		return msg.New("rd.why.zipformat")
	case errors.Is(err, zip.ErrAlgorithm):
		return msg.New("rd.why.zipalgorithm")
	case errors.Is(err, zip.ErrChecksum):
		return msg.New("rd.why.zipchecksum")
	case errors.As(err, &ce), errors.Is(err, io.ErrUnexpectedEOF):
		return msg.New("rd.why.zipcorrupt")
	}
	return msg.New("rd.why.unreadable")
}
