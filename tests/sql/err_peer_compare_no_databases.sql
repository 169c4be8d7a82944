-- compare_peer.sql without :databases: it stops with the message naming it
.load build/spidereval
.parameter set :runs '["samples/peers/predict_a.json", "samples/peers/predict_b.json"]'
.parameter set :dev 'samples/peers/dev.json'
.read sql/compare_peer.sql
