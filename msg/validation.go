package msg

// Local validation of requests (package validation). Every text names the
// spreadsheet column (the JSON path, the same in both languages), says what
// is wrong and what to write instead. The API's own messages come in as %s
// arguments and are quoted verbatim.
func init() {
	register(map[string]Text{
		"val.request.nil": {
			ES: "la solicitud está vacía: revise que las filas tengan datos",
			EN: "the request is empty: check that the rows hold data",
		},

		// Identifiers.
		"val.id.required": {
			ES: "%s está vacío o es 0: escriba un número entero mayor que 0",
			EN: "%s is empty or 0: write a whole number greater than 0",
		},
		"val.id.positive": {
			ES: "%s vale %d: debe ser un número entero mayor que 0",
			EN: "%s is %d: it must be a whole number greater than 0",
		},
		"val.id.negative": {
			ES: "%s vale %d: no puede ser negativo; déjelo vacío para usar el valor configurado o escriba un id válido",
			EN: "%s is %d: it cannot be negative; leave it empty to use the configured value or write a valid id",
		},
		"val.id.apiRequired": {
			ES: "%s está vacío o no es mayor que 0; la API lo rechazaría con «%s»: escriba un número entero mayor que 0",
			EN: "%s is empty or not greater than 0; the API would refuse it with «%s»: write a whole number greater than 0",
		},

		// Amounts and quantities.
		"val.amount.required": {
			ES: "%s está vacío: escriba un importe (0 si no corresponde)",
			EN: "%s is empty: write an amount (0 if it does not apply)",
		},
		"val.amount.negative": {
			ES: "%s vale %s: no puede ser negativo; escriba un importe de 0 o más",
			EN: "%s is %s: it cannot be negative; write an amount of 0 or more",
		},
		"val.amount.overflow": {
			ES: "%s: los importes son demasiado grandes para sumarlos; revise que no haya un número mal escrito",
			EN: "%s: the amounts are too large to add up; check for a mistyped number",
		},
		"val.cantidad.required": {
			ES: "%s está vacío: escriba la cantidad, mayor que 0",
			EN: "%s is empty: write the quantity, greater than 0",
		},
		"val.cantidad.positive": {
			ES: "%s vale %s: la cantidad debe ser mayor que 0",
			EN: "%s is %s: the quantity must be greater than 0",
		},
		"val.stock.cantidad.positive": {
			ES: "%s vale %s: la cantidad debe ser mayor que 0; para restar stock use tipo EGRESO_MANUAL o EGRESO_STOCK con cantidad positiva",
			EN: "%s is %s: the quantity must be greater than 0; to take stock out use tipo EGRESO_MANUAL or EGRESO_STOCK with a positive quantity",
		},
		"val.total.mismatch": {
			ES: "total %s ≠ subtotal %s + envío %s + recargo %s − descuento %s = %s: corrija total o los importes para que la cuenta cierre al centavo (la API respondería «%s»)",
			EN: "total %s ≠ subtotal %s + envio %s + recargo %s − descuento %s = %s: fix total or the amounts so that they add up to the cent (the API would answer «%s»)",
		},
		"val.subtotal.lines": {
			ES: "aviso: subtotal %s no coincide con la suma de precio × cantidad de los productos, %s; revise si falta una fila o un precio (la venta se envía igual)",
			EN: "warning: subtotal %s differs from the sum of price × quantity of the products, %s; check for a missing row or price (the sale is sent anyway)",
		},

		// Sale.
		"val.venta.noLines": {
			ES: "la venta no tiene productos (la API respondería «%s»): agregue al menos una fila con productos.articuloId, productos.cantidad y productos.precio",
			EN: "the sale has no products (the API would answer «%s»): add at least one row with productos.articuloId, productos.cantidad and productos.precio",
		},
		"val.usuario.required": {
			ES: "falta el cliente: complete usuario.dni, usuario.cuit o usuario.email, o escriba en entidadId el id de un cliente existente",
			EN: "the customer is missing: fill in usuario.dni, usuario.cuit or usuario.email, or write the id of an existing customer in entidadId",
		},
		"val.usuario.identity": {
			ES: "el cliente no tiene documento ni email: complete al menos uno de usuario.dni, usuario.cuit o usuario.email, o escriba entidadId",
			EN: "the customer has no document and no email: fill in at least one of usuario.dni, usuario.cuit or usuario.email, or write entidadId",
		},
		"val.cuit.chars": {
			ES: "usuario.cuit «%s» tiene caracteres que no son dígitos: escriba 11 dígitos, con o sin guiones (20-12345678-6)",
			EN: "usuario.cuit «%s» holds characters that are not digits: write 11 digits, with or without dashes (20-12345678-6)",
		},
		"val.cuit.length": {
			ES: "usuario.cuit «%s» no tiene 11 dígitos (tiene %d): un CUIT o CUIL tiene 11; revise que no falte ni sobre un dígito",
			EN: "usuario.cuit «%s» does not have 11 digits (it has %d): a CUIT or CUIL has 11; check for a missing or extra digit",
		},
		"val.cuit.checkDigit": {
			ES: "usuario.cuit «%s»: el dígito verificador no corresponde (con esos 10 primeros dígitos debería ser %d); revise que no haya un dígito cambiado",
			EN: "usuario.cuit «%s»: the check digit is wrong (for those first 10 digits it should be %d); check for a mistyped digit",
		},
		"val.dni": {
			ES: "usuario.dni «%s» no es un DNI: escriba 7 u 8 dígitos, con o sin puntos (12.345.678)",
			EN: "usuario.dni «%s» is not a DNI: write 7 or 8 digits, with or without dots (12.345.678)",
		},
		"val.email": {
			ES: "usuario.email «%s» no parece un email: escriba una dirección como nombre@dominio.com.ar, sin espacios",
			EN: "usuario.email «%s» does not look like an email: write an address like name@domain.com.ar, without spaces",
		},
		"val.condicion": {
			ES: "usuario.condicion vale %d: use 0 SIN_CATEGORIA, 1 CONSUMIDOR_FINAL, 2 RESPONSABLE_INSCRIPTO, 3 MONOTRIBUTO, 4 EXENTO o 5 RESPONSABLE_NO_INSCRIPTO",
			EN: "usuario.condicion is %d: use 0 SIN_CATEGORIA, 1 CONSUMIDOR_FINAL, 2 RESPONSABLE_INSCRIPTO, 3 MONOTRIBUTO, 4 EXENTO or 5 RESPONSABLE_NO_INSCRIPTO",
		},

		// Payment.
		"val.medioPago.required": {
			ES: "medioPago.tipo está vacío (la API respondería «%s»): escriba uno de %s",
			EN: "medioPago.tipo is empty (the API would answer «%s»): write one of %s",
		},
		"val.medioPago.unknown": {
			ES: "medioPago.tipo vale %d, que no es un medio de pago: use uno de %s",
			EN: "medioPago.tipo is %d, which is not a payment type: use one of %s",
		},
		"val.medioPago.venta": {
			ES: "medioPago.tipo %s no se acepta en ventas directas (la API respondería «%s»): use EFECTIVO, DEPOSITO_BANCO o VIRTUAL; para cobrar con tarjeta o cuenta corriente cargue una preventa en el ERP y factúrela con una planilla de tipo facturar",
			EN: "medioPago.tipo %s is not accepted on direct sales (the API would answer «%s»): use EFECTIVO, DEPOSITO_BANCO or VIRTUAL; to charge a card or a current account, enter a presale in the ERP and invoice it with a facturar spreadsheet",
		},
		"val.medioPago.cuenta": {
			ES: "medioPago.cuentaBancariaId está vacío: con DEPOSITO_BANCO indique la cuenta bancaria (vea `nxbatch catalog show`)",
			EN: "medioPago.cuentaBancariaId is empty: with DEPOSITO_BANCO give the bank account (see `nxbatch catalog show`)",
		},
		"val.medioPago.tarjeta": {
			ES: "medioPago.tarjetaId está vacío: con TARJETA indique la tarjeta (vea `nxbatch catalog show`)",
			EN: "medioPago.tarjetaId is empty: with TARJETA give the card (see `nxbatch catalog show`)",
		},
		"val.medioPago.external": {
			ES: "medioPago.externalId está vacío: con VIRTUAL escriba el id de la operación en la billetera o pasarela de pago",
			EN: "medioPago.externalId is empty: with VIRTUAL write the operation id of the wallet or payment gateway",
		},
		"val.medioPago.disabled": {
			ES: "medioPago.tipo %s no está habilitado para esta empresa en el ERP: use un medio habilitado o pida al administrador que lo habilite",
			EN: "medioPago.tipo %s is not enabled for this company in the ERP: use an enabled payment type or ask the administrator to enable it",
		},
		"val.electronica.required": {
			ES: "electronica está vacío: escriba sí (factura electrónica ante ARCA) o no",
			EN: "electronica is empty: write yes (electronic invoice with ARCA) or no",
		},

		// Catalog ids.
		"val.catalog.unknown": {
			ES: "%s %d no existe en los catálogos de la empresa; valores válidos: %s",
			EN: "%s %d does not exist in the company's catalogs; valid values: %s",
		},
		"val.catalog.unknownMany": {
			ES: "%s %d no existe en los catálogos de la empresa; los valores más cercanos son %s (vea todos con `nxbatch catalog show`)",
			EN: "%s %d does not exist in the company's catalogs; the closest values are %s (see them all with `nxbatch catalog show`)",
		},
		"val.catalog.none": {
			ES: "%s %d no existe: ese catálogo de la empresa está vacío en el ERP; cargue los datos allí y actualice con `nxbatch catalog pull`",
			EN: "%s %d does not exist: the company has none in the ERP; add it there and refresh with `nxbatch catalog pull`",
		},
		"val.motivo.deleted": {
			ES: "motivoId %d (%s) fue eliminado en el ERP: elija un motivo vigente (vea `nxbatch catalog show`)",
			EN: "motivoId %d (%s) was deleted in the ERP: choose a current reason (see `nxbatch catalog show`)",
		},

		// Stock movement.
		"val.stock.tipo.required": {
			ES: "tipo está vacío: escriba INGRESO_MANUAL, EGRESO_MANUAL, INGRESO_STOCK, EGRESO_STOCK o TRANSFERENCIA",
			EN: "tipo is empty: write INGRESO_MANUAL, EGRESO_MANUAL, INGRESO_STOCK, EGRESO_STOCK or TRANSFERENCIA",
		},
		"val.stock.tipo.unknown": {
			ES: "tipo vale %d, que no es un tipo de movimiento: use INGRESO_MANUAL (4), EGRESO_MANUAL (5), INGRESO_STOCK (6), EGRESO_STOCK (7) o TRANSFERENCIA (10)",
			EN: "tipo is %d, which is not a movement type: use INGRESO_MANUAL (4), EGRESO_MANUAL (5), INGRESO_STOCK (6), EGRESO_STOCK (7) or TRANSFERENCIA (10)",
		},
		"val.stock.destino.required": {
			ES: "depositoDosId está vacío: una TRANSFERENCIA necesita el depósito de destino",
			EN: "depositoDosId is empty: a TRANSFERENCIA needs the destination warehouse",
		},
		"val.stock.destino.same": {
			ES: "depositoDosId %d es el mismo depósito que depositoId: una TRANSFERENCIA va a otro depósito",
			EN: "depositoDosId %d is the same warehouse as depositoId: a TRANSFERENCIA goes to another warehouse",
		},
		"val.stock.destino.notTransfer": {
			ES: "%s solo se usa con tipo TRANSFERENCIA y este movimiento es %s: deje %s vacío o cambie el tipo",
			EN: "%s is only used with tipo TRANSFERENCIA and this movement is %s: leave %s empty or change the tipo",
		},
		"val.stock.noArticulos": {
			ES: "el movimiento no tiene artículos: agregue al menos una fila con articulos.articuloId y articulos.cantidad",
			EN: "the movement has no articles: add at least one row with articulos.articuloId and articulos.cantidad",
		},
		"val.stock.fecha": {
			ES: "fecha «%s» no es una fecha válida: escriba dd/mm/aaaa o aaaa-mm-dd",
			EN: "fecha «%s» is not a valid date: write dd/mm/yyyy or yyyy-mm-dd",
		},
	})
}
