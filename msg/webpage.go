package msg

// Messages of the page's column screen, bulk fixes and the page's own
// wording of what the command line words for a terminal (issue 22): a
// block of its own, so that other changes to webapp.go merge cleanly.
func init() {
	register(map[string]Text{
		// The column screen: every field in the user's words, the API's
		// path shown small beside it.
		"web.field.ordenId":                           {ES: "N° de orden o pedido", EN: "Order number"},
		"web.field.detalle":                           {ES: "Detalle u observación", EN: "Detail or note"},
		"web.field.listaPrecioId":                     {ES: "Lista de precios", EN: "Price list"},
		"web.field.puntoVentaId":                      {ES: "Punto de venta", EN: "Point of sale"},
		"web.field.entidadId":                         {ES: "Cliente del ERP (id)", EN: "ERP customer (id)"},
		"web.field.empleadoId":                        {ES: "Vendedor", EN: "Seller"},
		"web.field.usuario.nombre":                    {ES: "Nombre o razón social del cliente", EN: "Customer's name or company name"},
		"web.field.usuario.email":                     {ES: "Correo electrónico del cliente", EN: "Customer's email"},
		"web.field.usuario.dni":                       {ES: "DNI del cliente", EN: "Customer's DNI"},
		"web.field.usuario.cuit":                      {ES: "CUIT del cliente", EN: "Customer's CUIT"},
		"web.field.usuario.telefono":                  {ES: "Teléfono del cliente", EN: "Customer's phone"},
		"web.field.usuario.condicion":                 {ES: "Condición frente al IVA", EN: "VAT status"},
		"web.field.direccionEnvio.provincia":          {ES: "Provincia de entrega", EN: "Delivery province"},
		"web.field.direccionEnvio.localidad":          {ES: "Localidad de entrega", EN: "Delivery town"},
		"web.field.direccionEnvio.direccion":          {ES: "Dirección de entrega", EN: "Delivery address"},
		"web.field.direccionEnvio.codigoPostal":       {ES: "Código postal de entrega", EN: "Delivery postcode"},
		"web.field.direccionFacturacion.provincia":    {ES: "Provincia de facturación", EN: "Billing province"},
		"web.field.direccionFacturacion.localidad":    {ES: "Localidad de facturación", EN: "Billing town"},
		"web.field.direccionFacturacion.direccion":    {ES: "Dirección de facturación", EN: "Billing address"},
		"web.field.direccionFacturacion.codigoPostal": {ES: "Código postal de facturación", EN: "Billing postcode"},
		"web.field.subtotal":                          {ES: "Subtotal", EN: "Subtotal"},
		"web.field.descuento":                         {ES: "Descuento", EN: "Discount"},
		"web.field.recargo":                           {ES: "Recargo", EN: "Surcharge"},
		"web.field.envio":                             {ES: "Costo de envío", EN: "Shipping cost"},
		"web.field.total":                             {ES: "Total de la venta", EN: "Sale total"},
		"web.field.medioPago.tipo":                    {ES: "Forma de pago", EN: "Payment method"},
		"web.field.medioPago.cuentaBancariaId":        {ES: "Cuenta bancaria", EN: "Bank account"},
		"web.field.medioPago.tarjetaId":               {ES: "Tarjeta", EN: "Card"},
		"web.field.medioPago.externalId":              {ES: "N° de operación de la pasarela de pago", EN: "Payment gateway operation number"},
		"web.field.productos.articuloId":              {ES: "Artículo (id)", EN: "Article (id)"},
		"web.field.productos.precio":                  {ES: "Precio unitario", EN: "Unit price"},
		"web.field.productos.cantidad":                {ES: "Cantidad vendida", EN: "Quantity sold"},
		"web.field.productos.talleId":                 {ES: "Talle", EN: "Size"},
		"web.field.productos.colorId":                 {ES: "Color", EN: "Colour"},
		"web.field.facturaId":                         {ES: "Preventa a facturar (id)", EN: "Presale to invoice (id)"},
		"web.field.electronica":                       {ES: "Factura electrónica (SI/NO)", EN: "Electronic invoice (SI/NO)"},
		"web.field.depositoId":                        {ES: "Depósito", EN: "Warehouse"},
		"web.field.motivoId":                          {ES: "Motivo del movimiento", EN: "Movement reason"},
		"web.field.tipo":                              {ES: "Tipo de movimiento", EN: "Movement type"},
		"web.field.fecha":                             {ES: "Fecha", EN: "Date"},
		"web.field.sref":                              {ES: "Referencia propia", EN: "Your own reference"},
		"web.field.depositoDosId":                     {ES: "Depósito de destino", EN: "Destination warehouse"},
		"web.field.sucursalDosId":                     {ES: "Sucursal de destino", EN: "Destination branch"},
		"web.field.movimiento":                        {ES: "Su clave de movimiento", EN: "Your movement key"},
		"web.field.articulos.articuloId":              {ES: "Artículo (id)", EN: "Article (id)"},
		"web.field.articulos.cantidad":                {ES: "Cantidad", EN: "Quantity"},
		"web.field.articulos.colorId":                 {ES: "Color", EN: "Colour"},
		"web.field.articulos.talleId":                 {ES: "Talle", EN: "Size"},
		"web.field.articulos.precio":                  {ES: "Costo unitario", EN: "Unit cost"},
		"web.field.articulos.detalle":                 {ES: "Detalle del artículo", EN: "Article note"},
		"web.field.articulos.sref":                    {ES: "Referencia propia del artículo", EN: "Your own article reference"},
		"web.columns.option":                          {ES: "%s · %s", EN: "%s · %s"},
		"web.columns.option.required":                 {ES: "%s (obligatorio) · %s", EN: "%s (required) · %s"},
		"web.columns.question":                        {ES: "¿«%s» es %s? Puede ser cualquiera de esos campos: elija cuál completa.", EN: "Is «%s» %s? It could be any of those fields: choose the one it fills."},
		"web.columns.or":                              {ES: " o ", EN: " or "},
		"web.columns.suggested":                       {ES: "sugerido por el nombre de la columna", EN: "suggested by the column's name"},
		"web.columns.headerrow":                       {ES: "Fila de los títulos de las columnas", EN: "Row holding the column titles"},
		"web.columns.headerrow.help":                  {ES: "El número de fila de la planilla donde están los títulos; cámbielo si se tomó una fila equivocada y pulse «Cambiar».", EN: "The sheet's row number holding the titles; change it if the wrong row was taken and press \"Change\"."},
		"web.columns.headerrow.bad":                   {ES: "La fila de los títulos debe ser un número de fila, desde 1.", EN: "The titles row must be a row number, from 1."},
		"web.plan.autoprofile":                        {ES: "Se aplicó automáticamente el perfil de columnas «%s», guardado para archivos con estas mismas columnas.", EN: "The column profile «%s», saved for files with these same columns, was applied automatically."},
		"web.plan.autoprofile.change":                 {ES: "Elegir otras columnas", EN: "Choose other columns"},

		// Fixing every row with the same mistake at once.
		"web.bulk.offer": {ES: "cambiar también las otras %s filas con «%s» en esta columna", EN: "also change the other %s rows with «%s» in this column"},
		"web.bulk.done":  {ES: "Se cambió «%s» por «%s» en %s filas de la columna %s.", EN: "«%s» was changed to «%s» in %s rows of column %s."},
		"web.working":    {ES: "Trabajando…", EN: "Working…"},

		// The page's wording of what the command line says with a flag or
		// a command (ForPage).
		"web.page.load.titlerows": {
			ES: "%[2]s: se omitieron %[1]d filas de título sobre el encabezado (fila %[3]d); si el encabezado es otro, cámbielo en «Columnas» (Fila de los títulos)",
			EN: "%[2]s: %[1]d title rows above the header (row %[3]d) were skipped; if the header is another row, change it in \"Columns\" (Row holding the column titles)",
		},
		"web.page.load.titlerows.one": {
			ES: "%[2]s: se omitió %[1]d fila de título sobre el encabezado (fila %[3]d); si el encabezado es otro, cámbielo en «Columnas» (Fila de los títulos)",
			EN: "%[2]s: %[1]d title row above the header (row %[3]d) was skipped; if the header is another row, change it in \"Columns\" (Row holding the column titles)",
		},
		"web.page.tpl.intro.run": {
			ES: "Cuando la complete, súbala en la página de nxbatch («Subir archivo»): la página muestra los errores en sus celdas antes de enviar nada. Esta hoja y la hoja «Listas» se omiten al leer el archivo.",
			EN: "When it is filled in, upload it in nxbatch's page (\"Upload file\"): the page shows the errors on their cells before anything is sent. This sheet and sheet «Listas» are skipped when the file is read.",
		},
		"web.page.tpl.list.unknown": {
			ES: "no se pudo consultar el catálogo de %s, así que no hay lista: escriba el id (vea los valores en «Catálogos y plantillas» de la página)",
			EN: "the catalog of %s could not be fetched, so there is no list: type the id (see the values in the page's \"Catalogs and templates\")",
		},
		"web.page.tpl.error.id": {
			ES: "Ese id no está en los catálogos de la empresa. Elija uno de la lista (vea la hoja Instrucciones o «Catálogos y plantillas» en la página).",
			EN: "That id is not in the company's catalogs. Pick one from the list (see sheet Instrucciones or \"Catalogs and templates\" in the page).",
		},
		"web.page.tpl.error.enum": {
			ES: "Ese valor no está en la lista. Elija uno de la lista; la página revisa lo que escriba al subir el archivo.",
			EN: "That value is not on the list. Pick one from the list; the page checks what you type when the file is uploaded.",
		},
		"web.page.cell.ambiguous": {
			ES: "el número «%s» es ambiguo: puede ser miles o decimales; escríbalo sin separador de miles (1234 o 1,234)",
			EN: "the number «%s» is ambiguous: it may be thousands or decimals; write it without a thousands separator (1234 or 1.234)",
		},
		"web.page.load.nokind": {
			ES: "no se reconoce el tipo de archivo: el encabezado debe tener ordenId (ventas), facturaId (preventas a facturar) o depositoId (stock); elija en «Columnas» qué campo completa cada columna",
			EN: "the kind of file is not recognised: the header must have ordenId (sales), facturaId (presales to invoice) or depositoId (stock); choose in \"Columns\" the field each column fills",
		},
		"web.page.sub.unauthorized": {
			ES: "la API rechazó el token (HTTP 401): no se envió nada más. Revise la conexión en «Conexión» y vuelva a enviar",
			EN: "the API refused the token (HTTP 401): nothing more was sent. Check the connection in \"Connection\" and send again",
		},
		"web.page.sub.unreachable": {
			ES: "no enviado: no se pudo conectar con la API en %s (%s). Revise la conexión en «Conexión» y la red, y vuelva a enviar el archivo: se enviará entonces",
			EN: "not sent: the API at %s could not be reached (%s). Check the connection in \"Connection\" and the network, and send the file again: it is sent then",
		},
		"web.page.conn.unreachable": {
			ES: "no se pudo conectar con la API en %s (%s): no se envió nada. Revise la conexión en «Conexión» y la red, y vuelva a enviar; las filas quedan pendientes",
			EN: "the API at %s could not be reached (%s): nothing was sent. Check the connection in \"Connection\" and the network, and send again; the rows stay pending",
		},
		"web.page.tpl.catalog.never": {
			ES: "no se pudo consultar: esa columna no tiene lista; use «Actualizar desde la API» en «Catálogos y plantillas» y descargue la planilla de nuevo",
			EN: "could not be fetched: that column has no list; use \"Refresh from the API\" in \"Catalogs and templates\" and download the template again",
		},
		"web.columns.headerrow.empty": {ES: "La fila %d está vacía o no existe: indique la fila que tiene los títulos de las columnas.", EN: "Row %d is empty or missing: give the row that holds the column titles."},
		"web.page.rd.headerrow": {
			ES: "la fila %d, indicada como fila de los títulos en «Columnas», está vacía o no existe: indique allí el número de la fila que tiene los títulos de las columnas",
			EN: "row %d, given as the titles row in \"Columns\", is empty or missing: give there the number of the row that holds the column titles",
		},
		// The connection page: serve started without one.
		"web.conn.title":          {ES: "Conexión con la API", EN: "Connection to the API"},
		"web.conn.heading":        {ES: "Conexión con la API del ERP", EN: "Connection to the ERP's API"},
		"web.conn.intro":          {ES: "Ingrese una sola vez la dirección de la API y el token de su integración (los da el ERP). Se prueban contra la API y se guardan en su carpeta de nxbatch, legibles solo por usted; el token no vuelve a mostrarse.", EN: "Enter once the API's address and your integration's token (the ERP gives them). They are tried against the API and kept in your nxbatch folder, readable by you only; the token is never shown again."},
		"web.conn.url":            {ES: "Dirección de la API", EN: "API address"},
		"web.conn.url.help":       {ES: "Por ejemplo https://api.su-erp.com.ar", EN: "For example https://api.your-erp.com"},
		"web.conn.env":            {ES: "Ambiente", EN: "Environment"},
		"web.conn.env.production": {ES: "Producción", EN: "Production"},
		"web.conn.env.test":       {ES: "Pruebas", EN: "Test"},
		"web.conn.token":          {ES: "Token de la integración", EN: "Integration token"},
		"web.conn.token.help":     {ES: "Se guarda legible solo por usted y nunca se muestra.", EN: "It is kept readable by you only and never shown."},
		"web.conn.save":           {ES: "Probar y guardar", EN: "Try and save"},
		"web.conn.badurl":         {ES: "La dirección de la API debe empezar con https:// (o http://) y nombrar un servidor, por ejemplo https://api.su-erp.com.ar.", EN: "The API's address must start with https:// (or http://) and name a server, for example https://api.your-erp.com."},
		"web.conn.badenv":         {ES: "Elija el ambiente: Producción o Pruebas.", EN: "Choose the environment: Production or Test."},
		"web.conn.notoken":        {ES: "Falta el token de la integración: cópielo del ERP.", EN: "The integration's token is missing: copy it from the ERP."},
		"web.conn.unauthorized":   {ES: "La API rechazó el token (HTTP 401): revise que esté completo y sea el de esta integración. No se guardó nada.", EN: "The API refused the token (HTTP 401): check it is whole and this integration's. Nothing was saved."},
		"web.conn.unreachable":    {ES: "No se pudo conectar con la API en %s: revise la dirección y la red. No se guardó nada.", EN: "The API at %s could not be reached: check the address and the network. Nothing was saved."},
		"web.conn.failed":         {ES: "La API no respondió como se esperaba (%s). No se guardó nada.", EN: "The API did not answer as expected (%s). Nothing was saved."},
		"web.conn.savefailed":     {ES: "No se pudo guardar la conexión: %s.", EN: "The connection could not be saved: %s."},
		"web.conn.startfailed":    {ES: "La conexión se guardó, pero la página no pudo iniciarse con ella: %s. Cierre nxbatch y vuelva a abrirlo.", EN: "The connection was saved, but the page could not start with it: %s. Close nxbatch and open it again."},
		"web.log.connection":      {ES: "conexión con la API guardada desde la página", EN: "API connection saved from the page"},
		// The command, started without a connection, and its --open.
		"serve.setup":  {ES: "nxbatch serve: no hay conexión con la API guardada; ingrésela en %s (la dirección lleva la clave que solo usted tiene: no la comparta; Ctrl-C para terminar)", EN: "nxbatch serve: no API connection is saved; enter it at %s (the address carries a key only you have: do not share it; Ctrl-C to stop)"},
		"serve.noopen": {ES: "no se pudo abrir el navegador (%s): abra la dirección de arriba", EN: "the browser could not be opened (%s): open the address above"},
	})
}
