-- compare_peer.sql without :dev or :gold: it stops with the message naming it
.load build/spidereval
.parameter set :runs '["samples/peers/predict_a.json", "samples/peers/predict_b.json"]'
.parameter set :databases 'build/samples/peers_dev'
.read sql/compare_peer.sql
