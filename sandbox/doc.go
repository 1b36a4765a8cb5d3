// Package sandbox is nxbatch's own implementation of the ERP's third-party
// integration API (../shared/api/third-party-api.md): the embedded default of
// `nxbatch run --sandbox`, the server of `nxbatch sandbox`, and what every
// end-to-end test runs against. A client that behaves well here should behave
// well against the real API, so every rule of the spec is enforced with its
// exact text; texts and statuses the spec leaves open are marked
// "sandbox's own" where they are defined.
//
// Decisions where the spec is silent:
//   - Error bodies are JSON {"error": text, "mensajes": [...]} with the API's
//     text verbatim. Unknown paths are 404, wrong methods 405 (with Allow),
//     a missing or wrong X-NX-TOKEN 401 before anything else, an unknown
//     path included. Paths are matched without regard to case
//     (public-facts.md, "Paths"); InspectPath is the sandbox's own and
//     keeps its one spelling.
//   - Answers follow the vendor's public types (public-facts.md, "Wire
//     types"): every enum is an integer (estado, comprobanteTipo,
//     tipoDocumento, tipo), and /comprobante's ordenId is a string, or null
//     for a voucher without one. estado's integers are the sandbox's own
//     (the ERP's are not public: see estadoCodes); State and InspectPath
//     keep the states' names.
//   - /venta and /facturar validation messages are 400; "La solicitud ya se
//     esta procesando" is 400 too; a totals mismatch or a presale that is not
//     PENDIENTE is 200 with errores=true; an unknown id (article, presale,
//     bank account, card, point of sale, warehouse) is 404; branch scope,
//     an inactive entidadId and an invalid empleadoId are 403.
//   - The 30 s anti-duplicate key (ordenId, facturaId; sendrules.KeyHold) is
//     taken once the body and medioPago pass, and held even when the request
//     is then refused. A refused duplicate does not extend it. After 30 s a
//     resend is a new sale.
//   - /facturar converts the presale in place: the FACTURA_VENTA keeps the
//     presale's facturaId and numero. /venta numbers new vouchers from 50001
//     and takes its lines' units out of the stock (of the main warehouse
//     when it is in the point of sale's branch, else of that branch's
//     first warehouse of the integration), sending the articles' events.
//   - POST /Pedido (any case) creates an order as the data's
//     config.pedidos says: a presale (comprobanteTipo 33, the default,
//     which /facturar converts) or a reservation (PedidoTipoReserva, the
//     sandbox's own code), PENDIENTE, or PAGADO when sent with pagado and
//     medioPago; no stock moves and no export shows it. Its 30 s hold is
//     per numero. The same ordenId again after the hold is the paid update
//     when it carries pagado (a PENDIENTE order becomes PAGADO), and is
//     otherwise refused with errores=true, nothing created; a second
//     update is refused too. POST /Pedido/cancelar?facturaid=N (any case
//     of the parameter, no body) cancels an order of this integration in
//     PENDIENTE or PAGADO (state ANULADO, the sandbox's own name) with an
//     NxResultado tipo 1; any other state is tipo 2, an id that is no
//     order of the integration 404. State.Pedidos lists the orders.
//   - Rate windows come from the one table of the API's limits, package
//     sendrules (which endpoint has which window: sendrules.WindowOf; how
//     long, per environment: sendrules.Env.Limit): 3 s for stock
//     movements; one 60 s window shared by /config, /config/depositos,
//     /medios-pago, /motivos, /puntos-venta and /empleados; 10 s (test 3 s)
//     for GET /comprobante/{id}; one 30 s (test 3 s) window shared by the
//     four paginated exports; 10 s (test 3 s) for the webhook list; one 30 s
//     (test 3 s) window for webhook writes; one 10-minute window in both
//     environments shared by GetData, GetDataCurva and the non-paginated
//     exports (the masses). They count every request that
//     reaches the endpoint, valid or not (a 404 too); a refused one does
//     not restart the window. The refusal is 403 "Debe esperar N segundos
//     entre cada solicitud", N being API seconds: the real time left
//     divided by TimeScale, rounded up, at least 1, so a client started
//     with the same scale waits N × scale.
//   - Stock movements: malformed body or unknown tipo 403 "Los datos de stock
//     recibidos son incorrectos"; motivoId missing 400; business validation
//     (unknown motivo, article, variant...) 200 with NxResultado tipo 2.
//   - Paginated exports (ventatotales, ventaitems, compratotales,
//     compraitems): the branch scope first (403 with spec 7's texts:
//     sucursalId must be an enabled branch, and may be left out only when
//     exactly one is enabled; the message lists the enabled ones), then the
//     period, then the page; every other refusal is 400 with the sandbox's
//     own text. A period is exactly one of desde+hasta, fecha, or anio+mes.
//     Dates are taken as dd/MM/yyyy (the API's own date form) or
//     yyyy-MM-dd, whole days in UTC (the time zone of the API's dates);
//     desde and hasta are both included and "at most 30 days" counts them
//     that way (01/09 to 30/09 is 30 days; 01/09 to 01/10 is 31, refused).
//     anio is four digits, mes two (01 to 12). page counts from 1 and
//     defaults to 1, pageSize defaults to DefaultExportPageSize and may not
//     exceed 500; a page past the last is empty, not an error.
//   - ventatotales lists the branch's sales (comprobanteTipo 2) and credit
//     notes (4), oldest first (fecha, then facturaId): those created by
//     /venta, presales converted by /facturar, and the data file's.
//     Presales never appear. appId is config.appId on the integration's
//     vouchers (created through the API, or seeded as propio) and null on
//     those made in the ERP. iva and impuestosTotal are 0 (the sandbox keeps
//     no tax rates); tipoDocumento is an integer, A (1) for a customer
//     sent as RESPONSABLE_INSCRIPTO and B (2) otherwise;
//     formasPago is listed only with incluirMediosPago=true (null
//     otherwise): one payment per voucher for its whole total, none for a
//     seeded voucher (the data file holds no payments). ventaitems has one
//     row per line of the same vouchers (VentaItem, a shape of the
//     sandbox's own); compratotales and compraitems check the same
//     parameters and answer empty pages (the sandbox holds no purchases).
//     Options.ExportLag hides a voucher from every export for that long
//     after it became a sale through the API (API time: scaled by
//     TimeScale, measured on Options.Now).
//   - The article catalog: GetData answers the grouped Articulo[]
//     (deactivated articles left out: the answer is the complete picture),
//     GetDataCurva one ArticuloConCurva per variant (a deactivated article
//     as one record with eliminado), both with size and colour names and
//     codes, barcodes and talleColor, and the stock as it is now. Without
//     depositoId unidades is the integration's total (the main warehouse's
//     in multi-warehouse mode, with stockDepositos); with it, that
//     warehouse's own units, which must be one of the integration's (403
//     with spec 7's texts otherwise; 400 for one that is not a number).
//   - Events: one POST per changed article, flat ([]ArticuloConCurva) or
//     grouped (Articulo) per the webhook's extra, delivered in order by one
//     worker, never retried. A deactivated article is [{articuloId,
//     eliminado: true}] in flat format and {articuloId, eliminado: true} in
//     grouped format.
//
// Every API request goes through the same steps, in this order:
//
//  1. added latency (Options.Latency);
//  2. auth: a missing or wrong X-NX-TOKEN is 401, on any path, known or
//     not (the API checks the token before it looks the path up);
//  3. route, without regard to the path's letter case (as the API): an
//     unknown path 404, a wrong method 405;
//  4. the body is read (a POST);
//  5. the endpoint's rate window is taken: the API counts every request
//     that reaches the endpoint, so a request refused later still took it;
//  6. validation: the body, the business rules and the branch scope, which
//     answer the API's refusals;
//  7. the fault draw, only for a creating POST (venta, facturar, stock
//     movement) that passed 6, that is one the API would process;
//  8. processing, unless the draw was a 500 or a hang;
//  9. the answer, unless the draw was a drop or a hang.
//
// So a fault never changes what the API would refuse: a refused request
// gets its refusal whatever the faults, and draws nothing. A dropped answer
// only ever hides a request that was processed in full (its key held, its
// voucher or movement created); a 500 or a hang only ever hits a request
// the API would have processed, and it is not processed: it leaves no trace
// but the rate window it took (no key hold, no voucher). The rules of step
// 6 that read the sandbox's state, the draw and the processing run in one
// critical section, so nothing changes between the check and the apply.
//
// GET InspectPath (outside the API) answers State().Redacted(): it takes the
// sandbox's token in X-NX-TOKEN like the API (401 without it) and never shows
// a secret (webhook header values are redacted). Tests may also call the
// Go methods State, StockOf, Comprobante, Flush, SetStock,
// TriggerArticuloChange and DeactivateArticulo. Reload applies a new version
// of the data file's articles and stock and sends the events of what changed.
//
// With Options.StateFile the state a client's view depends on (vouchers,
// presales converted, stock and movements, webhooks, the id counters, the
// anti-duplicate holds, the rate windows, the fault draws) is kept in that
// file and saved before each change is answered, so a restarted sandbox
// holds what the one before it answered; InstanceID names it, and changes
// only with a new file. Request counters and delivery logs stay per
// process.
package sandbox
