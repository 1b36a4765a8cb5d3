package msg

// Messages of webhook administration (webhooks list|set|delete): the API
// spec 4.6 field rules checked before sending, and what the command did.
func init() {
	register(map[string]Text{
		"wh.url.required": {
			ES: "Falta la URL del webhook (--url)",
			EN: "The webhook URL is missing (--url)",
		},
		"wh.url.long": {
			ES: "La URL tiene %d caracteres; la API acepta como máximo %d",
			EN: "The URL has %d characters; the API accepts at most %d",
		},
		"wh.url.bad": {
			ES: "La URL %q no sirve: debe ser absoluta y empezar con http:// o https://",
			EN: "The URL %q cannot be used: it must be absolute and start with http:// or https://",
		},
		"wh.topic.required": {
			ES: "Falta el tema (topic) del webhook; el único es articulos",
			EN: "The webhook topic is missing; the only one is articulos",
		},
		"wh.topic.bad": {
			ES: "El tema (topic) %q no existe; el único es articulos",
			EN: "The topic %q does not exist; the only one is articulos",
		},
		"wh.extra.bad": {
			ES: "El formato %q no existe: use flat (plano, una fila por variante) o grouped (agrupado por artículo)",
			EN: "The format %q does not exist: use flat (one record per variant) or grouped (one object per article)",
		},
		"wh.headers.many": {
			ES: "Hay %d encabezados; la API acepta como máximo %d",
			EN: "There are %d headers; the API accepts at most %d",
		},
		"wh.key.required": {
			ES: "Al encabezado %d le falta el nombre (use --header NOMBRE=VALOR)",
			EN: "Header %d has no name (use --header NAME=VALUE)",
		},
		"wh.key.long": {
			ES: "El nombre del encabezado %d es demasiado largo; la API acepta como máximo %d caracteres",
			EN: "The name of header %d is too long; the API accepts at most %d characters",
		},
		"wh.key.bad": {
			ES: "El nombre de encabezado %q tiene espacios o caracteres especiales: use solo letras, números, - y _",
			EN: "The header name %q has spaces or special characters: use only letters, digits, - and _",
		},
		"wh.key.repeated": {
			ES: "El encabezado %q repite a %q (la API no distingue mayúsculas de minúsculas)",
			EN: "The header %q repeats %q (the API ignores letter case)",
		},
		"wh.value.required": {
			ES: "El encabezado %q no tiene valor",
			EN: "The header %q has no value",
		},
		"wh.value.long": {
			ES: "El valor del encabezado %q es demasiado largo; la API acepta como máximo %d caracteres",
			EN: "The value of header %q is too long; the API accepts at most %d characters",
		},
		"wh.value.newline": {
			ES: "El valor del encabezado %q tiene saltos de línea; la API no los acepta",
			EN: "The value of header %q has line breaks; the API does not accept them",
		},
		"wh.header.form": {
			ES: "El encabezado %q no tiene la forma NOMBRE=VALOR",
			EN: "The header %q is not of the form NAME=VALUE",
		},
		"wh.header.reserved": {
			ES: "El encabezado %s lo maneja nxbatch con --secret; no lo indique con --header",
			EN: "The header %s is managed by nxbatch with --secret; do not give it with --header",
		},
		"wh.rejected": {
			ES: "La configuración tiene problemas; no se envió nada a la API:",
			EN: "The settings have problems; nothing was sent to the API:",
		},
		"wh.waiting": {
			ES: "Esperando %s por el límite de frecuencia de la API para webhooks…",
			EN: "Waiting %s for the API's webhook rate limit…",
		},
		"wh.none": {
			ES: "La integración no tiene webhooks configurados",
			EN: "The integration has no webhooks configured",
		},
		"wh.created": {
			ES: "Webhook %d creado",
			EN: "Webhook %d created",
		},
		"wh.edited": {
			ES: "Webhook %d modificado (la API permite uno solo por topic)",
			EN: "Webhook %d edited (the API allows only one per topic)",
		},
		"wh.unchanged": {
			ES: "El webhook %d ya tenía esa configuración; no se modificó",
			EN: "Webhook %d already had these settings; nothing was changed",
		},
		"wh.deleted": {
			ES: "Webhook %d eliminado; ya no llegarán eventos de artículos",
			EN: "Webhook %d deleted; article events will no longer arrive",
		},
		"wh.delete.missing": {
			ES: "No existe el webhook %d: en esta API borrar un id inexistente es un error (no se puede repetir un borrado). Vea los ids con «nxbatch webhooks list»",
			EN: "Webhook %d does not exist: on this API deleting a missing id is an error (a delete cannot be repeated). See the ids with \"nxbatch webhooks list\"",
		},
		"wh.secret.created": {
			ES: "Se generó un secreto compartido, guardado en %s (solo lo lee su dueño). Se muestra esta única vez: %s",
			EN: "A shared secret was generated and stored in %s (readable by its owner only). It is shown this once only: %s",
		},
		"wh.secret.kept": {
			ES: "Se sigue enviando el secreto compartido guardado en %s",
			EN: "The shared secret stored in %s is still sent",
		},
		"wh.insecure": {
			ES: "La URL %s usa http:// sin cifrar hacia un equipo que no es este: el ERP enviaría el secreto compartido (encabezado %s) a la vista de cualquiera en el camino, que podría falsificar eventos. Use https:// (por ejemplo con un proxy TLS delante de «nxbatch listen») o, solo en una red de confianza, agregue --allow-insecure-http. No se envió nada a la API",
			EN: "The URL %s uses unencrypted http:// to a host that is not this one: the ERP would send the shared secret (header %s) in plain sight of anyone on the path, who could forge events. Use https:// (for example with a TLS proxy in front of \"nxbatch listen\") or, only on a trusted network, add --allow-insecure-http. Nothing was sent to the API",
		},
		"wh.insecure.allowed": {
			ES: "Atención: con --allow-insecure-http el ERP enviará el secreto compartido a %s sin cifrar (encabezado %s); cualquiera en el camino puede leerlo y falsificar eventos. Pase a https:// cuanto antes",
			EN: "Warning: with --allow-insecure-http the ERP will send the shared secret to %s unencrypted (header %s); anyone on the path can read it and forge events. Move to https:// as soon as possible",
		},
		"wh.secret.unsaved": {
			ES: "El webhook ya envía un secreto nuevo pero no se pudo guardar (%s): ejecute de nuevo «nxbatch webhooks set --secret»",
			EN: "The webhook now sends a new secret but it could not be stored (%s): run \"nxbatch webhooks set --secret\" again",
		},
		"wh.list.header": {
			ES: "id\ttopic\tformato\tactivo\turl\tencabezados",
			EN: "id\ttopic\tformat\tactive\turl\theaders",
		},
	})
}
