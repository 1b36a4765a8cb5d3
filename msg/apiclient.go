package msg

// Connection settings: the API token and base URL (package apiclient).
func init() {
	register(map[string]Text{
		"cli.token.missing": {
			ES: "Falta el token de la integración: defina la variable de entorno NX_TOKEN o indique un archivo con --token-file.",
			EN: "The integration token is missing: set the NX_TOKEN environment variable or point --token-file at a file holding it.",
		},
		"cli.token.emptyfile": {
			ES: "El archivo de token %s está vacío: guarde en él el token de la integración, o use la variable de entorno NX_TOKEN.",
			EN: "The token file %s is empty: put the integration token in it, or use the NX_TOKEN environment variable.",
		},
		"cli.token.read": {
			ES: "No se pudo leer el archivo de token %s.",
			EN: "Could not read the token file %s.",
		},
		"cli.token.notfile": {
			ES: "El archivo de token %s no es un archivo común (¿una carpeta, un FIFO, un dispositivo?): guarde el token en un archivo y vuelva a intentar.",
			EN: "The token file %s is not a regular file (a folder, a FIFO, a device?): keep the token in a file and try again.",
		},
		"cli.token.perms": {
			ES: "El archivo de token %s puede ser leído por otros usuarios (permisos %s): ejecute «chmod 600 %s» y vuelva a intentar.",
			EN: "The token file %s can be read by other users (permissions %s): run «chmod 600 %s» and try again.",
		},
		"cli.token.invalid": {
			ES: "El token de la integración tiene caracteres no válidos (saltos de línea o caracteres de control): revise NX_TOKEN o el archivo de token.",
			EN: "The integration token has invalid characters (line breaks or control characters): check NX_TOKEN or the token file.",
		},
		"cli.baseurl.empty": {
			ES: "Falta la dirección de la API: defina NX_BASE_URL (por ejemplo https://api.ejemplo.com.ar).",
			EN: "The API address is missing: set NX_BASE_URL (for example https://api.example.com).",
		},
		"cli.baseurl.bad": {
			ES: "La dirección de la API %q no es válida: tiene que ser una dirección completa que empiece con http:// o https://.",
			EN: "The API address %q is not valid: it must be a full address starting with http:// or https://.",
		},
		"cli.baseurl.unparsable": {
			ES: "La dirección de la API no es válida (¿tiene espacios o caracteres especiales?): escriba en NX_BASE_URL o --base-url una dirección completa, como https://api.ejemplo.com.ar.",
			EN: "The API address is not valid (does it hold blanks or special characters?): give NX_BASE_URL or --base-url a full address, like https://api.example.com.",
		},
		"cli.baseurl.userinfo": {
			ES: "La dirección de la API no puede incluir usuario ni contraseña: quítelos de NX_BASE_URL; el token va en NX_TOKEN o --token-file.",
			EN: "The API address must not include a user name or password: remove them from NX_BASE_URL; the token goes in NX_TOKEN or --token-file.",
		},
		"cli.baseurl.query": {
			ES: "La dirección de la API %q no puede llevar parámetros (?...) ni fragmento (#...): deje solo el servidor y la ruta base.",
			EN: "The API address %q must not carry parameters (?...) or a fragment (#...): keep only the server and base path.",
		},
		"cli.baseurl.insecure": {
			ES: "La dirección de la API %s es http:// y no está en esta máquina: el token viajaría sin cifrar. Use https://, o --allow-insecure-http si sabe lo que hace.",
			EN: "The API address %s is http:// and not on this machine: the token would travel unencrypted. Use https://, or --allow-insecure-http if you know what you are doing.",
		},
		"cli.baseurl.insecure.warn": {
			ES: "aviso: el token viaja sin cifrar a %s (--allow-insecure-http)",
			EN: "warning: the token travels unencrypted to %s (--allow-insecure-http)",
		},
		"cli.useragent.invalid": {
			ES: "El User-Agent configurado tiene caracteres no válidos.",
			EN: "The configured User-Agent has invalid characters.",
		},
	})
}
