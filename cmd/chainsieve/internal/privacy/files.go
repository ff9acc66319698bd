package privacy

import "encoding/json"

// File is one file of a written report.
type File struct {
	Name string
	Data []byte
}

// Files returns every file of the report: report.md, report.html,
// report.json, and for each plot <id>.svg and <id>.csv.
func (r *Report) Files() ([]File, error) {
	js, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, err
	}
	html, err := r.HTML()
	if err != nil {
		return nil, err
	}
	out := []File{{"report.md", r.Markdown()}, {"report.html", html}, {"report.json", append(js, '\n')}}
	for i := range r.Plots {
		p := &r.Plots[i]
		svg, err := p.SVG(true)
		if err != nil {
			return nil, err
		}
		out = append(out, File{p.ID + ".svg", svg}, File{p.ID + ".csv", p.CSV()})
	}
	return out, nil
}
