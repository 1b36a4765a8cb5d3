package apiclient

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
)

// MaxCatalogBody caps a catalog answer (GetData, GetDataCurva): a shop of
// 100,000 variants answers some 50 MB; ten times that is a broken server.
const MaxCatalogBody = 512 << 20

// CatalogTimeout bounds one catalog read when the client's own timeout is
// shorter: tens of megabytes take longer than a sale's answer.
const CatalogTimeout = 5 * time.Minute

// GetData reads GET GetData, the article catalog grouped by article (each
// with its curve of sizes and colours, and tags). depositoID 0 asks for the
// integration's stock; another asks for that warehouse's own units (it
// must be one of GET /config/depositos, else the API answers 403).
//
// The call is in the API's masses window (sendrules.Masses, 10 minutes,
// shared with GetDataCurva and the non-paginated exports): pacing is the
// caller's (catalog.Cache takes the window through sendrules.Paced). An
// answer that cannot be read is an error wrapping an *nxapi.CatalogError
// (or a *WireTypeError naming the field); one that lists no article wraps
// nxapi.ErrEmptyCatalog.
func (c *Client) GetData(ctx context.Context, depositoID int64) ([]nxapi.Articulo, error) {
	var out []nxapi.Articulo
	err := c.readCatalog(ctx, nxapi.PathGetData, depositoID, func(b []byte) (err error) {
		out, err = nxapi.DecodeGetData(b)
		return err
	})
	return out, err
}

// GetDataCurva reads GET GetDataCurva, the article catalog as one flat
// record per variant (the vendor's recommendation for bulk work), with
// deactivated articles marked eliminado. depositoID, window and errors as
// GetData's.
func (c *Client) GetDataCurva(ctx context.Context, depositoID int64) ([]nxapi.ArticuloConCurva, error) {
	var out []nxapi.ArticuloConCurva
	err := c.readCatalog(ctx, nxapi.PathGetDataCurva, depositoID, func(b []byte) (err error) {
		out, err = nxapi.DecodeGetDataCurva(b)
		return err
	})
	return out, err
}

// readCatalog performs one catalog GET with the catalog's size limit and
// timeout, and decodes a 2xx answer with decode.
func (c *Client) readCatalog(ctx context.Context, path string, depositoID int64, decode func([]byte) error) error {
	if depositoID != 0 {
		path += "?" + url.Values{"depositoId": {strconv.FormatInt(depositoID, 10)}}.Encode()
	}
	x := c.exchangeLimit(ctx, http.MethodGet, path, nil, max(c.timeout, CatalogTimeout), MaxCatalogBody)
	return c.answer(http.MethodGet, path, x, decode)
}
