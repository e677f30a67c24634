"""CPU-time steps/s of random legal play on haggis_v0: this tree against another copy of the code, and
RLCard's Dou Dizhu, each in a child process, in rounds taken in turn (``docs/haggis_agents.md``).

``PYTHONPATH=. python docs/haggis_env_speed.py ROUNDS BEFORE_DIR`` where ``BEFORE_DIR`` holds an older
``seers_env`` (e.g. ``git archive a563cb0 seers_env | tar -x -C /tmp/before``). CPU time
(``time.process_time``), not wall time, so the load of a shared machine matters less.
"""
import subprocess, sys, os, json
code = r'''
import time, numpy as np, sys, json
from seers_env.haggis_v0 import env
def ours(n, steps, seed):
    e = env(n_players=n); e.reset(seed=seed); rng = np.random.default_rng(seed + 1)
    t0 = time.process_time(); k = 0
    while k < steps:
        if not e.agents: e.reset(); continue
        obs, _, term, trunc, _ = e.last()
        if term or trunc: e.step(None); continue
        legal = np.flatnonzero(obs["action_mask"].astype(bool)); e.step(int(legal[int(rng.integers(len(legal)))])); k += 1
    return steps / (time.process_time() - t0)
n, steps, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
ours(n, 100, seed)
print(json.dumps(ours(n, steps, seed)))
'''
dou = r'''
import time, numpy as np, sys, json, rlcard
steps, seed = int(sys.argv[1]), int(sys.argv[2])
e = rlcard.make("doudizhu", config={"seed": seed}); rng = np.random.default_rng(seed)
def run(steps):
    t0 = time.process_time(); k = 0
    while k < steps:
        state, _ = e.reset()
        while not e.is_over() and k < steps:
            legal = list(state["legal_actions"].keys()); state, _ = e.step(legal[int(rng.integers(len(legal)))]); k += 1
    return steps / (time.process_time() - t0)
run(200)
print(json.dumps(run(steps)))
'''
py = sys.executable
res = {}
for rep in range(int(sys.argv[1])):
    for label, root in (("before", os.path.abspath(sys.argv[2])), ("after", os.getcwd())):
        for n in (2, 3):
            steps = 400 if label == "before" else 3000
            out = subprocess.run([py, "-c", code, str(n), str(steps), str(rep)], env={**os.environ, "PYTHONPATH": root}, cwd=os.path.dirname(os.path.abspath(sys.argv[2])), capture_output=True, text=True, check=True)
            res.setdefault(f"{label} {n}p", []).append(json.loads(out.stdout))
    out = subprocess.run([py, "-c", dou, "3000", str(rep)], cwd=os.path.dirname(os.path.abspath(sys.argv[2])), capture_output=True, text=True, check=True)
    res.setdefault("doudizhu", []).append(json.loads(out.stdout))
for k, v in res.items():
    print(f"{k:10s} {sum(v)/len(v):8.0f} steps per CPU second  ({', '.join(f'{x:.0f}' for x in v)})")
d = sum(res['doudizhu']) / len(res['doudizhu'])
for k in ("before 2p", "before 3p", "after 2p", "after 3p"):
    print(f"{k} / doudizhu: {sum(res[k])/len(res[k])/d:.2f}x")
