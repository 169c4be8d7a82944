-- report_peer_html.sql without :databases: it stops with the message naming it
.load build/spidereval
.parameter set :predictions 'samples/peers/predict_a.json'
.parameter set :dev 'samples/peers/dev.json'
.read sql/report_peer_html.sql
