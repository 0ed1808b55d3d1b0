"""
PyTorch CPU reference for `npm run bench:train-speed`: the same network as the arena's update
bench (64 -> 256 -> 256 -> 16, relu), batch 256, Adam, softmax cross-entropy, one thread.
Run it with Debian's python3-torch and libopenblas0-serial, OPENBLAS_NUM_THREADS=1 (the bench
sets it). Prints one JSON line: {"torch": version, "updatesPerSec": best window,
"updatesPerCpuSec": ..., "threads": 1}; exits 3 with {"error": ...} when torch is missing.
Usage: python3 bench/pytorch-update.py [--seconds 2] [--batch 256]
"""
import argparse
import json
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--seconds", type=float, default=2.0)
parser.add_argument("--batch", type=int, default=256)
args = parser.parse_args()

try:
    import torch
except Exception as e:  # noqa: BLE001 - any import failure means "no reference here"
    print(json.dumps({"error": f"python3 cannot import torch ({type(e).__name__}: {e})"}))
    sys.exit(3)

torch.set_num_threads(1)
torch.manual_seed(1)
net = torch.nn.Sequential(
    torch.nn.Linear(64, 256), torch.nn.ReLU(), torch.nn.Linear(256, 256), torch.nn.ReLU(), torch.nn.Linear(256, 16)
)
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
x = torch.rand(args.batch, 64) * 2 - 1
y = torch.randint(0, 16, (args.batch,))
loss_fn = torch.nn.CrossEntropyLoss()


def step():
    opt.zero_grad(set_to_none=True)
    loss = loss_fn(net(x), y)
    loss.backward()
    opt.step()


for _ in range(5):
    step()
windows = 6
best = 0.0
steps = 0
cpu0 = time.process_time()
end = time.perf_counter() + args.seconds
while time.perf_counter() < end:
    t0 = time.perf_counter()
    n = 0
    while True:
        step()
        n += 1
        if time.perf_counter() - t0 >= args.seconds / windows:
            break
    best = max(best, n / (time.perf_counter() - t0))
    steps += n
cpu = time.process_time() - cpu0
blas = ""
try:
    blas = torch.__config__.show().split("BLAS_INFO=")[1].split(",")[0]
except Exception:  # noqa: BLE001
    pass
print(json.dumps({"torch": torch.__version__, "blas": blas, "updatesPerSec": best, "updatesPerCpuSec": steps / cpu if cpu > 0 else None, "threads": torch.get_num_threads()}))
