-- report_peer.sql with a :limit that is not a whole number: the failure
-- listing stops the script with an error naming :limit
.load build/spidereval
.parameter set :databases 'build/samples/peers_dev'
.parameter set :predictions 'samples/peers/predict_b.json'
.parameter set :dev 'samples/peers/dev.json'
.parameter set :limit 2.5
.output /dev/null
.read sql/report_peer.sql
