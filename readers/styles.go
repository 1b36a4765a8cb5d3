package readers

import (
	"io"
	"strconv"
)

// maxStyles bounds the cell formats (and number formats) recorded from
// styles.xml: Excel allows 64,000. Formats past it are read as not dates.
const maxStyles = 1 << 16

// readDateStyles streams styles.xml and returns, for each cell format of
// <cellXfs> (the index a cell's s attribute names), whether it shows the
// cell's number as a date or time. Formats in <cellStyleXfs> are not cell
// formats and are skipped.
func readDateStyles(r io.Reader) ([]bool, error) {
	sc := newXMLScanner(r, limits.maxTag)
	custom := map[int]bool{} // numFmtId → is a date format, for <numFmts>
	var xfIDs []int
	inNumFmts, inCellXfs := false, false
	for {
		tok, err := sc.next()
		if err != nil {
			return nil, err
		}
		if tok == tokEOF {
			break
		}
		name := string(sc.local)
		if tok == tokEnd {
			switch name {
			case "numFmts":
				inNumFmts = false
			case "cellXfs":
				inCellXfs = false
			}
			continue
		}
		switch {
		case name == "numFmts":
			inNumFmts = !sc.selfClosing
		case name == "cellXfs":
			inCellXfs = !sc.selfClosing
		case name == "numFmt" && inNumFmts && len(custom) < maxStyles:
			id, okID := attrInt(sc, "numFmtId")
			raw, okCode := sc.attr("formatCode")
			if okID && okCode {
				code, err := sc.value(raw)
				if err != nil {
					return nil, err
				}
				custom[id] = isDateFormat(string(code))
			}
		case name == "xf" && inCellXfs && len(xfIDs) < maxStyles:
			id, _ := attrInt(sc, "numFmtId")
			xfIDs = append(xfIDs, id)
			if err := sc.skip(); err != nil {
				return nil, err
			}
		}
	}
	dates := make([]bool, len(xfIDs))
	for i, id := range xfIDs {
		if d, ok := custom[id]; ok {
			dates[i] = d
		} else {
			dates[i] = builtinDateFormat(id)
		}
	}
	return dates, nil
}

// attrInt reads a non-negative integer attribute.
func attrInt(sc *xmlScanner, name string) (int, bool) {
	raw, ok := sc.attr(name)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(string(raw))
	return n, err == nil && n >= 0
}

// builtinDateFormat reports whether a built-in number format (ECMA-376
// 18.8.30) is a date or time: 14-22 and 45-47, plus 27-36 and 50-58, the
// East Asian date formats some locales map there.
func builtinDateFormat(id int) bool {
	return (14 <= id && id <= 22) || (27 <= id && id <= 36) || (45 <= id && id <= 47) || (50 <= id && id <= 58)
}

// isDateFormat reports whether a custom format code shows a date or time:
// it has a date or time token (d, m, y, h, s, or an elapsed [h] [m] [s])
// outside quoted text, escaped characters and other [...] sections (colour,
// locale, condition). "General", "0.00", `#,##0 "días"` are numbers;
// "dd/mm/yyyy", "[$-F800]dddd", "h:mm AM/PM", "[h]:mm" are dates.
func isDateFormat(code string) bool {
	for i := 0; i < len(code); i++ {
		switch c := code[i]; c {
		case '"':
			for i++; i < len(code) && code[i] != '"'; i++ {
			}
		case '\\', '_', '*':
			i++ // the next character is literal, padding or fill
		case '[':
			end := i + 1
			for end < len(code) && code[end] != ']' {
				end++
			}
			switch t := code[i+1 : min(end, len(code))]; t {
			case "h", "hh", "m", "mm", "s", "ss", "H", "HH", "M", "MM", "S", "SS":
				return true
			}
			i = end
		case 'd', 'D', 'm', 'M', 'y', 'Y', 'h', 'H', 's', 'S':
			return true
		case 'e', 'E':
			// "E+" in a scientific format, otherwise a (Japanese) year.
			if i+1 < len(code) && (code[i+1] == '+' || code[i+1] == '-') {
				i++
			}
		}
	}
	return false
}
