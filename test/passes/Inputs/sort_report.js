// Runs the sort of a report-html page (prec-report) on its own table: parses
// the rows, gives the page's sortBy a stand-in for the document, clicks the
// headers named on the command line in turn and prints the names of the rows
// after each click.
//   node sort_report.js REPORT.html HEADER...
const fs = require('fs');
const [page, ...clicks] = process.argv.slice(2);
const html = fs.readFileSync(page, 'utf8');
const headers =
    [...html.matchAll(/<th onclick="sortBy\((\d+)\)">([^<]*)<\/th>/g) ].map(
        m => ({column : Number(m[1]), name : m[2]}));
const body = {
  dataset : {},
  rows : [...html.matchAll(/<tr style="[^"]*">(.*?)<\/tr>/g) ].map(
      m => ({
        cells : [...m[1].matchAll(/<td>(.*?)<\/td>/g) ].map(
            c => ({textContent : c[1]})),
      })),
  appendChild(
      row) { this.rows = this.rows.filter(r => r !== row).concat([ row ]); },
};
const document = {
  querySelector : () => body
};
const script = html.match(/<script>([\s\S]*?)<\/script>/)[1];
const sortBy = new Function('document', script + '\nreturn sortBy;')(document);
for (const click of clicks) {
  sortBy(headers.find(h => h.name === click).column);
  console.log(click + ': ' +
              body.rows.map(r => r.cells[0].textContent).join(' '));
}
