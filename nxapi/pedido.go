package nxapi

// Cancelar is the cancellation of an order: POST /Pedido/cancelar takes the
// order's facturaId as its query parameter and no body; this record is what
// nxbatch builds, hashes and journals for it, and the client turns it into
// the query.
type Cancelar struct {
	FacturaID int64 `json:"facturaId"`
}
