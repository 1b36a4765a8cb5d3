package msg

// Texts of `nxbatch catalog pull|show|export` (keys "catc.").
func init() {
	register(map[string]Text{
		"catc.pull.fetched":      {ES: "%s: actualizado desde la API", EN: "%s: fetched from the API"},
		"catc.pull.local":        {ES: "%s: tomado del sandbox embebido", EN: "%s: taken from the embedded sandbox"},
		"catc.pull.fresh":        {ES: "%s: la copia guardada es de hace %s; no hace falta consultarlo", EN: "%s: the cached copy is %s old; no need to fetch it"},
		"catc.pull.window":       {ES: "la API permite una consulta de parámetros por minuto para todos los catálogos juntos; se podrá pedir a las %s (en %d s)", EN: "the API allows one parameter request a minute for all catalogs together; it can be fetched at %s (in %d s)"},
		"catc.pull.none":         {ES: "%s: no se consultó (%s) y no hay copia guardada", EN: "%s: not fetched (%s) and there is no cached copy"},
		"catc.pull.cached":       {ES: "%s: no se consultó (%s); queda la copia guardada de hace %s", EN: "%s: not fetched (%s); the cached copy from %s ago stays"},
		"catc.pull.unauthorized": {ES: "la API rechazó el token (HTTP 401): revise NX_TOKEN o --token-file", EN: "the API refused the token (HTTP 401): check NX_TOKEN or --token-file"},
		"catc.pull.apiwait":      {ES: "la API pidió esperar %d s: «%s»; se podrá pedir a las %s", EN: "the API asked to wait %d s: «%s»; it can be fetched at %s"},
		"catc.pull.hint":         {ES: "Para traer lo que faltó: nxbatch catalog pull --only %s (o --wait-window para esperar entre catálogos)", EN: "To fetch what is missing: nxbatch catalog pull --only %s (or --wait-window to wait between catalogs)"},
		"catc.pull.failed":       {ES: "no se pudo consultar ningún catálogo; se conservan las copias guardadas", EN: "no catalog could be fetched; the cached copies are kept"},
		"catc.age":               {ES: "copia de hace %s", EN: "copy from %s ago"},
		"catc.notfetched":        {ES: "todavía no se consultó: ejecute nxbatch catalog pull --only %s", EN: "not fetched yet: run nxbatch catalog pull --only %s"},
		"catc.yes":               {ES: "sí", EN: "yes"},
		"catc.no":                {ES: "no", EN: "no"},

		"catc.t.medios":      {ES: "Medios de pago habilitados (medioPago.tipo)", EN: "Enabled payment types (medioPago.tipo)"},
		"catc.t.cuentas":     {ES: "Cuentas bancarias (medioPago.cuentaBancariaId)", EN: "Bank accounts (medioPago.cuentaBancariaId)"},
		"catc.t.tarjetas":    {ES: "Tarjetas (medioPago.tarjetaId)", EN: "Cards (medioPago.tarjetaId)"},
		"catc.t.motivos":     {ES: "Motivos de movimiento de stock vigentes (motivoId)", EN: "Stock movement reasons in use (motivoId)"},
		"catc.t.depositos":   {ES: "Depósitos de la integración (depositoId, depositoDosId)", EN: "The integration's warehouses (depositoId, depositoDosId)"},
		"catc.t.puntosventa": {ES: "Puntos de venta (puntoVentaId)", EN: "Points of sale (puntoVentaId)"},
		"catc.t.empleados":   {ES: "Empleados (empleadoId)", EN: "Employees (empleadoId)"},

		"catc.empty.medios":      {ES: "la empresa no tiene habilitado ningún medio de pago", EN: "the company has no payment type enabled"},
		"catc.empty.cuentas":     {ES: "no hay cuentas bancarias cargadas: no se puede usar DEPOSITO_BANCO hasta crear una en el ERP", EN: "there are no bank accounts: DEPOSITO_BANCO cannot be used until one is created in the ERP"},
		"catc.empty.tarjetas":    {ES: "no hay tarjetas cargadas: no se puede usar TARJETA hasta crear una en el ERP", EN: "there are no cards: TARJETA cannot be used until one is created in the ERP"},
		"catc.empty.motivos":     {ES: "no hay motivos vigentes: cree uno en el ERP antes de cargar movimientos de stock", EN: "there are no reasons in use: create one in the ERP before loading stock movements"},
		"catc.empty.depositos":   {ES: "la integración no tiene depósitos configurados", EN: "the integration has no warehouses configured"},
		"catc.empty.puntosventa": {ES: "no hay puntos de venta en las sucursales habilitadas", EN: "there are no points of sale in the enabled branches"},
		"catc.empty.empleados":   {ES: "no hay empleados activos en las sucursales habilitadas", EN: "there are no active employees in the enabled branches"},

		"catc.col.catalogo":    {ES: "catálogo", EN: "catalog"},
		"catc.col.tipo":        {ES: "tipo", EN: "type"},
		"catc.col.codigo":      {ES: "código", EN: "code"},
		"catc.col.venta":       {ES: "sirve para venta", EN: "valid for venta"},
		"catc.col.facturar":    {ES: "sirve para facturar", EN: "valid for facturar"},
		"catc.col.id":          {ES: "id", EN: "id"},
		"catc.col.descripcion": {ES: "descripción", EN: "description"},
		"catc.col.banco":       {ES: "banco", EN: "bank"},
		"catc.col.alias":       {ES: "alias", EN: "alias"},
		"catc.col.cbu":         {ES: "CBU", EN: "CBU"},
		"catc.col.numero":      {ES: "número", EN: "number"},
		"catc.col.nombre":      {ES: "nombre", EN: "name"},
		"catc.col.cuotas":      {ES: "cuotas", EN: "instalments"},
		"catc.col.modificado":  {ES: "modificado", EN: "modified"},
		"catc.col.sucursal":    {ES: "sucursal", EN: "branch"},
		"catc.col.principal":   {ES: "principal", EN: "main"},

		"catc.export.ext":     {ES: "no se puede exportar a %s: use un nombre terminado en .xlsx o .csv, o una carpeta (para validate --catalog)", EN: "cannot export to %s: use a name ending in .xlsx or .csv, or a folder (for validate --catalog)"},
		"catc.export.nothing": {ES: "no hay catálogos guardados para exportar: ejecute primero nxbatch catalog pull", EN: "there are no cached catalogs to export: run nxbatch catalog pull first"},
		"catc.export.done":    {ES: "catálogos exportados a %s", EN: "catalogs exported to %s"},
		"catc.offline":        {ES: "se muestran las copias guardadas (no se consulta la API)", EN: "showing the cached copies (the API is not asked)"},
	})
}
