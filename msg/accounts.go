package msg

// Messages of serve's accounts (`nxbatch serve user add|remove|list`) and
// of the page's login.
func init() {
	register(map[string]Text{
		"acct.name.bad":       {ES: "el nombre de usuario %q no sirve: use de 1 a 64 letras sin acento, dígitos o . _ @ -", EN: "the user name %q will not do: use 1 to 64 unaccented letters, digits or . _ @ -"},
		"acct.password.short": {ES: "la contraseña tiene %d caracteres: debe tener al menos %d (una frase de varias palabras es fácil de recordar y difícil de adivinar)", EN: "the password has %d characters: it must have at least %d (a phrase of a few words is easy to remember and hard to guess)"},
		"acct.password.long":  {ES: "la contraseña es demasiado larga: a lo sumo %d bytes", EN: "the password is too long: at most %d bytes"},
		"acct.password.again": {ES: "las dos contraseñas escritas no coinciden: no se cambió nada", EN: "the two passwords typed differ: nothing was changed"},
		"acct.password.none":  {ES: "no se recibió ninguna contraseña: escríbala cuando se la pide, o pásela en la primera línea de la entrada estándar", EN: "no password was given: type it when asked, or pass it on the first line of standard input"},
		"acct.read":           {ES: "no se pudo leer el archivo de usuarios %s: %s", EN: "cannot read the users file %s: %s"},
		"acct.write":          {ES: "no se pudo escribir el archivo de usuarios %s: %s", EN: "cannot write the users file %s: %s"},
		"acct.perms":          {ES: "el archivo de usuarios %s tiene permisos %s: otros usuarios pueden leerlo. Ejecute: chmod 600 %s", EN: "the users file %s has mode %s: other users can read it. Run: chmod 600 %s"},
		"acct.unknown":        {ES: "no hay ningún usuario %q", EN: "there is no user %q"},
		"acct.toomany":        {ES: "ya hay %d usuarios, el máximo", EN: "there are already %d users, the most allowed"},
		"acct.added":          {ES: "usuario %s guardado en %s", EN: "user %s saved in %s"},
		"acct.removed":        {ES: "usuario %s eliminado (sus sesiones abiertas terminan en su próximo pedido)", EN: "user %s removed (their open sessions end at their next request)"},
		"acct.none":           {ES: "no hay usuarios: agréguelos con nxbatch serve user add NOMBRE", EN: "there are no users: add them with nxbatch serve user add NAME"},
		"acct.prompt":         {ES: "Contraseña para %s (al menos %d caracteres): ", EN: "Password for %s (at least %d characters): "},
		"acct.prompt.again":   {ES: "Repítala: ", EN: "Again: "},

		"web.login.failed":    {ES: "Usuario o contraseña incorrectos.", EN: "Wrong user or password."},
		"web.login.throttled": {ES: "Demasiados intentos fallidos desde esta dirección o para este usuario: espere %s antes de volver a intentar.", EN: "Too many failed attempts from this address or for this user: wait %s before trying again."},
		"web.logout":          {ES: "Salir", EN: "Log out"},
	})
}
