package msg

// Messages of the page's crash-consistent history, its reconciliation,
// its clearer plan and its signs of work (issue 22).
func init() {
	register(map[string]Text{
		"web.upload.busy": {ES: "Subiendo y revisando el archivo…", EN: "Uploading and checking the file…"},
		"web.fix.busy":    {ES: "Guardando y revisando la corrección…", EN: "Saving and checking the fix…"},
	})
}
