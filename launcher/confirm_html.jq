# The HTML section of `gittrace --confirm --html` (input: confirm.jq's
# output), put after the page's verdict.
def pct: (. * 1000 | round / 10 | tostring) + "%";

"<section class=\"card\" id=\"gt-confirmation\"><h2>Confirmed: \(.confirmation.class | @html)</h2>",
"<p class=\"help\">Measured by <code>gittrace --confirm</code>: \(.confirmation.rounds // 0) paired rounds in random order (gittrace ab), wall time against the command as given. Predicted: \(.confirmation.predicted_class | @html).</p>",
"<table><thead><tr><th>remedy</th><th>measured saving</th><th>95% CI</th><th>predicted saving</th><th>predicted interval</th></tr></thead><tbody>",
(.confirmation.effects[]
 | "<tr><td>\(.remedy | @html)</td><td>\(.gain | pct)</td><td>\(1 - .ci_high | pct) to \(1 - .ci_low | pct)</td><td>\(.predicted_gain | pct)</td><td>\(.predicted_low | pct) to \(.predicted_high | pct)</td></tr>"),
"</tbody></table></section>"
