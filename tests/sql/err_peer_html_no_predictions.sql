-- report_peer_html.sql without :predictions: it stops with the message naming it
.load build/spidereval
.parameter set :dev 'samples/peers/dev.json'
.parameter set :databases 'build/samples/peers_dev'
.read sql/report_peer_html.sql
