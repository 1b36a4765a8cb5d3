package writers

import (
	"io"

	"github.com/nxbatch/nxbatch/internal/atomicfile"
)

// writeFileAtomic writes the file at path through write, atomically and
// owner-only (reports hold CUITs, DNIs and e-mails): see package
// atomicfile.
func writeFileAtomic(path string, write func(w io.Writer) error) error {
	return atomicfile.Write(path, atomicfile.Private, write)
}
