package privacy

import (
	"bytes"
	"html/template"
)

// HTML renders the report as one self-contained HTML5 document: styles in
// the document, every plot inlined as SVG, no script, no link, no URL.
func (r *Report) HTML() ([]byte, error) {
	svgs := map[string]template.HTML{}
	for i := range r.Plots {
		svg, err := r.Plots[i].SVG(false)
		if err != nil {
			return nil, err
		}
		svgs[r.Plots[i].ID] = template.HTML(svg) // produced by svgplot, which escapes all text
	}
	var b bytes.Buffer
	err := page.Execute(&b, struct {
		*Report
		SVG   map[string]template.HTML
		Kinds string
	}{r, svgs, kindList()})
	return b.Bytes(), err
}

var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"num":      exact,
	"cell":     func(c Cell) string { return c.display() },
	"head":     func(c Column) string { return c.heading() },
	"describe": func(c Column) string { return c.describe() },
	"qval":     func(q Quantity) string { return q.display() },
	"diff":     func(r Reproduction) string { return r.differenceText() },
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font-family: sans-serif; max-width: 72rem; margin: 2rem auto; padding: 0 1rem; color: #222; line-height: 1.45; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; font-size: 0.88rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; vertical-align: top; }
th { background: #f2f2f2; text-align: left; }
td.v { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
.kind { white-space: nowrap; color: #555; }
figure { margin: 1rem 0 2rem; }
figcaption { font-size: 0.88rem; color: #444; max-width: 60rem; }
svg { max-width: 100%; height: auto; }
.cols { font-size: 0.82rem; color: #444; }
code { background: #f4f4f4; padding: 0 0.2rem; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<h2 id="key-findings">Key findings</h2>
<ul>
{{range .KeyFindings}}<li><b>{{.Scheme}}.</b> {{.Text}}</li>
{{end}}</ul>
<p>Each number above is one of the report's quantities or reproductions below, where its model, assumptions and source are given.</p>
<p>Written by <code>{{.Command}}</code>. The same command and seed give the same report. Every number states its kind
({{.Kinds}}), its model, its assumptions and its source; report.json holds them all, and each plot's data is in its CSV file.</p>
<h2 id="inputs">Inputs</h2>
{{template "quantities" .Inputs}}
<h2 id="reproductions">Reproductions of published results</h2>
<table>
<tr><th>reproduction</th><th>published</th><th>computed</th><th>difference</th><th>model</th><th>note</th><th>source</th></tr>
{{range .Reproductions}}<tr><td>{{.Claim}}</td><td class="v">{{.AsWritten}}</td><td class="v">{{num .Computed}}</td><td class="v">{{diff .}}</td><td>{{.Model}}</td><td>{{.Note}}</td><td>{{.Source}}</td></tr>
{{end}}</table>
{{$root := .}}{{range .Sections}}{{$id := .ID}}
<h2 id="{{.ID}}">{{.Title}}</h2>
<p>{{.Summary}}</p>
{{if .Quantities}}{{template "quantities" .Quantities}}{{end}}
{{range .Tables}}<h3>{{.Title}}</h3>
<table>
<tr>{{range .Columns}}<th>{{head .}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td class="v">{{cell .}}</td>{{end}}</tr>
{{end}}</table>
<p class="cols">{{range .Columns}}{{$d := describe .}}{{if $d}}<b>{{.Label}}</b>: {{$d}}. {{end}}{{end}}</p>
{{end}}{{range $root.Plots}}{{if eq .Section $id}}<figure id="plot-{{.ID}}">
{{index $root.SVG .ID}}<figcaption>{{.Caption}} Data: <code>{{.ID}}.csv</code>.</figcaption>
</figure>
{{end}}{{end}}{{end}}
<h2 id="notes">Notes</h2>
<ul>
{{range .Notes}}<li>{{.}}</li>
{{end}}</ul>
</body>
</html>
{{define "quantities"}}<table>
<tr><th>quantity</th><th>value</th><th>kind</th><th>model</th><th>assumptions</th><th>source</th></tr>
{{range .}}<tr><td>{{.Label}}</td><td class="v">{{qval .}}</td><td class="kind">{{.Kind}}</td><td>{{.Model}}</td><td>{{.Assumptions}}</td><td>{{.Source}}</td></tr>
{{end}}</table>
{{end}}`))
