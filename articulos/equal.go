package articulos

import "slices"

// Equal reports whether ix and o were built from the same catalog: the
// same articles and variants, so that every row resolves alike against
// either (nil is no catalog). A page validating a fix from the last state
// asks it of the index built for the fix and the one the state used.
func (ix *Index) Equal(o *Index) bool {
	if ix == o {
		return true
	}
	if ix == nil || o == nil {
		return false
	}
	return slices.Equal(ix.arts, o.arts) && slices.Equal(ix.vars, o.vars) && slices.Equal(ix.dims, o.dims) &&
		slices.Equal(ix.keys, o.keys) && slices.Equal(ix.varArt, o.varArt)
}
