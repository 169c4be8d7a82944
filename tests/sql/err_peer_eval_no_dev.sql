-- evaluate_peer.sql without :dev or :gold: it stops with the message naming it
.load build/spidereval
.parameter set :predictions 'samples/peers/predict_a.json'
.parameter set :databases 'build/samples/peers_dev'
.read sql/evaluate_peer.sql
