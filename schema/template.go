package schema

// Sheet names an nxbatch template adds beside its data sheet (named after
// the kind): its instructions, its (hidden) lists and, when the article
// catalog is known, the articles by code. A filled template fed
// back as input carries them; they are not data, and need no warning.
const (
	InstructionsSheet = "Instrucciones"
	ListsSheet        = "Listas"
	ArticlesSheet     = "Artículos"
)

// IsTemplateSheet reports whether a sheet named name is one of a
// template's own sheets.
func IsTemplateSheet(name string) bool {
	return name == InstructionsSheet || name == ListsSheet || name == ArticlesSheet
}
