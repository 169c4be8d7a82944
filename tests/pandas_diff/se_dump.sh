#!/bin/bash
# prints the same format as pd_dump.py using spidereval
# (the bundle of this checkout, or $SE_EXT)
ext=${SE_EXT:-$(cd "$(dirname "$0")/../.." && pwd)/build/spidereval}
for f in "$@"; do
  SE_EXT=$ext /usr/bin/python3 - "$f" <<'PY'
import subprocess, sys, json, os
f=sys.argv[1]
ext=os.environ['SE_EXT']
q="select json_group_array(json_array(col,name,dtype)) from result_columns('%s');" % f
r=subprocess.run(['sqlite3','-bail',':memory:','-cmd','.load '+ext,q],capture_output=True,text=True)
if r.returncode!=0:
    err=r.stderr
    import re
    m=re.search(r"cannot read '[^']*': (\w+):",err)
    print(f,'ERR',m.group(1) if m else err.strip()); sys.exit()
cols=json.loads(r.stdout.strip() or '[]')
q2="select json_group_array(json_array(row,col,kind,text)) from result_cells('%s');" % f
r2=subprocess.run(['sqlite3','-bail',':memory:','-cmd','.load '+ext,q2],capture_output=True,text=True)
cells=[tuple(x) for x in json.loads(r2.stdout.strip() or '[]')]
cells.sort()
print(f,'OK',repr([c[1] for c in cols]),repr([c[2] for c in cols]),repr(cells))
PY
done
