package validation

import (
	"testing"

	"github.com/nxbatch/nxbatch/articulos"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
)

func articleCatalog() *Catalog {
	v := func(id int64, codigo, nombre string, talleID int64, talle string, colorID int64, color, barras string) nxapi.ArticuloConCurva {
		return nxapi.ArticuloConCurva{ArticuloID: id, Codigo: codigo, Nombre: nombre, TalleID: talleID, TalleNombre: talle,
			ColorID: colorID, ColorNombre: color, CodigoBarras: barras}
	}
	recs := []nxapi.ArticuloConCurva{
		v(10, "REM-001", "Remera lisa", 1, "S", 100, "Rojo", "7790000000011"),
		v(10, "REM-001", "Remera lisa", 2, "M", 100, "Rojo", "7790000000012"),
		v(20, "0042", "Gorra", 0, "", 0, "", "7791234567890"),
		v(30, "VIEJO", "Discontinuado", 0, "", 0, "", ""),
	}
	recs[3].Eliminado = true
	return &Catalog{Articulos: articulos.Build(recs)}
}

func TestResolveArticle(t *testing.T) {
	cat := articleCatalog()
	headers := map[string]string{"productos.codigo": "Código", "productos.talle": "Talle", "productos.color": "Color",
		"productos.codigoBarras": "EAN", "productos.articuloId": "Id artículo"}
	ref := func(q articulos.Query) ArticleRef {
		return ArticleRef{Query: q, Prefix: "productos", Header: func(p string) string { return headers[p] }}
	}
	tests := []struct {
		name    string
		cat     *Catalog
		q       articulos.Query
		want    articulos.Match
		checked bool
		field   string // of the one issue; "" none
		es      string // its Spanish text; "" not compared
	}{
		{name: "by code and names", cat: cat, q: articulos.Query{Codigo: "REM-001", Talle: "m", Color: "ROJO"},
			want: articulos.Match{ArticuloID: 10, TalleID: 2, ColorID: 100, Codigo: "REM-001", Nombre: "Remera lisa"}, checked: true},
		{name: "bare id checked", cat: cat, q: articulos.Query{ArticuloID: 99}, checked: true, field: "productos.articuloId",
			es: "Id artículo 99: no existe en el catálogo de artículos; corrija el id o use el código del artículo"},
		{name: "bare id without catalog goes unchecked", q: articulos.Query{ArticuloID: 99},
			want: articulos.Match{ArticuloID: 99}},
		{name: "code without catalog cannot be sent", q: articulos.Query{Codigo: "REM-001"}, field: "productos.codigo"},
		{name: "size alone without catalog names its column", q: articulos.Query{ArticuloID: 10, Talle: "M"}, field: "productos.talle"},
		{name: "formula", cat: cat, q: articulos.Query{Codigo: `="0042"`}, field: "productos.codigo",
			es: "Código «=\"0042\"» es una fórmula, no un código: escriba el código mismo (formatee la columna como Texto)"},
		{name: "scientific notation", cat: cat, q: articulos.Query{CodigoBarras: "7,79123E+12"}, field: "productos.codigoBarras",
			es: "EAN «7,79123E+12»: la planilla convirtió el número en notación científica y perdió dígitos; formatee la columna como Texto y vuelva a escribir el código completo"},
		{name: "unknown with suggestion", cat: cat, q: articulos.Query{Codigo: "REM-01"}, checked: true, field: "productos.codigo",
			es: "Código «REM-01»: ningún artículo del catálogo tiene ese código; ¿quiso decir «REM-001» Remera lisa? Corríjalo (cuentan los ceros a la izquierda) o use articuloId"},
		{name: "variant required", cat: cat, q: articulos.Query{Codigo: "REM-001"}, checked: true, field: "productos.codigo",
			es: "Código «REM-001»: «REM-001» Remera lisa tiene talles y colores; complete Talle (S, M) y Color (Rojo)"},
		{name: "id and code disagree", cat: cat, q: articulos.Query{Codigo: "0042", ArticuloID: 10}, checked: true, field: "productos.articuloId",
			es: "Id artículo «10» nombra «REM-001» Remera lisa, pero Código «0042» nombra «0042» Gorra: las dos columnas deben nombrar el mismo artículo; corrija una o deje vacía la que sobra"},
		{name: "barcode and size disagree", cat: cat, q: articulos.Query{CodigoBarras: "7790000000011", Talle: "M"}, checked: true, field: "productos.talle",
			es: "Talle «M» no coincide con EAN «7790000000011», que es «REM-001» Remera lisa S / Rojo: corrija una de las dos columnas o deje vacía la que sobra"},
		{name: "deactivated", cat: cat, q: articulos.Query{Codigo: "VIEJO"}, checked: true, field: "productos.codigo",
			es: "Código «VIEJO»: «VIEJO» Discontinuado está dado de baja en el ERP y no se puede vender ni mover; quite la fila o use otro artículo"},
		{name: "empty line left to the id rules", cat: cat, q: articulos.Query{}, checked: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, checked, issues := ResolveArticle(tt.cat, 2, ref(tt.q))
			if checked != tt.checked {
				t.Errorf("checked = %v, want %v", checked, tt.checked)
			}
			if tt.field == "" {
				if len(issues) != 0 {
					t.Fatalf("issues = %v", issues)
				}
				if m != tt.want {
					t.Errorf("match = %+v, want %+v", m, tt.want)
				}
				return
			}
			if len(issues) != 1 || issues[0].Field != tt.field || issues[0].Line != 2 || issues[0].Warning {
				t.Fatalf("issues = %+v, want one error on %s", issues, tt.field)
			}
			if got := issues[0].Msg.In(msg.ES); tt.es != "" && got != tt.es {
				t.Errorf("Spanish:\n got %s\nwant %s", got, tt.es)
			}
			if en := issues[0].Msg.In(msg.EN); en == issues[0].Msg.In(msg.ES) {
				t.Errorf("no English text: %s", en)
			}
		})
	}
}
