// Package reconcile settles the journal's unknown entries from evidence read
// back from the API (issue 10; API spec 4.2 rule 5, 4.7, 8; public facts,
// "Reading back what was created").
//
// nxbatch never resends a request that may have been processed, so a
// timeout, a cut connection or a 5xx leaves an entry unknown. Most of them
// can be settled by reading what the API holds:
//
//   - facturar: GET /comprobante/{facturaId} of the presale. A sale
//     (comprobanteTipo 2) means it was converted: ok, with the invoice's
//     ids. Still a presale (comprobanteTipo 33) when read after the key hold
//     of the last attempt: failed, safe to send again, because a presale
//     converts only once and /facturar on a converted one is refused. A 404
//     (not the integration's, or gone), any other comprobanteTipo, or an
//     answer with a field of an unexpected type decides nothing: a person
//     looks. estado decides nothing: the vendor sends it as an integer
//     whose codes are not public.
//   - venta: export rows carry no ordenId, so the sales export of the
//     branch of the point of sale (GET /exportar/ventatotales/paginado, all
//     pages of the days of the attempts) gives candidates, and GET
//     /comprobante/{facturaId} of a candidate ties it to an ordenId. A
//     candidate is a sale not already tied to an ok journal entry and
//     consistent with the unknown sale (total, date, customer; see
//     consistent), and with the integration's appId once the vouchers the
//     journal knows to be ours confirm that rows carry it (chooseFilters).
//     The sale's point of sale, total and customer come from the journal,
//     which keeps them with each attempt (IntentFacts, JournalFacts), or
//     from the run that sent it (Options.Facts); without them every
//     enabled branch is read and only the date narrows the candidates.
//     Found: ok, with the ids. Found nowhere, in exports whose
//     reading started at least SettleAfter after the last attempt (exports
//     may lag behind the sale): failed, sent again by the next run. Earlier
//     than that it stays unknown and the result says when to try again.
//   - stock: no read-back proves a movement. The result lists the rows of
//     each unknown movement and what the local stock snapshot (listen's)
//     knows of their articles, for the person who resolves it.
//
// The work is done in three steps, so that nothing is written on partial
// evidence: Prepare lists what can be settled and plans the reads (the
// plan says how many and the least time the API's windows allow);
// Execute reads, each read paced by its window (sendrules: Comprobante for
// GET /comprobante, Exports for the export, whose next allowed time is
// persisted in the journal per tenant before each request leaves, so a
// killed run or another process waits too) and decides; Commit writes each
// decision with its evidence (what was read, and when) as a journal
// verdict. A 401 stops the reading and nothing is committed; an export read
// that fails halfway, or a candidate that could not be read, leaves the
// sales that depend on it unknown.
package reconcile
