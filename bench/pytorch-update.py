"""
PyTorch CPU peer of the arena's PPO update for `npm run bench:train-speed` (bench/training-speed.ts).

Exactly the arena's step (bench/ppo-fixture.ts): the network 64 -> 256 -> 256 -> 17 (16 logits and
the value as one more output of the last layer, relu), batch 256, the masked PPO loss (softmax over
the legal actions only, clipped surrogate with clip 0.2, value loss 0.5 * mean(1/2 (V - R)^2),
entropy bonus 0.01 over the legal actions), approximate KL and clip fraction read back every step
(the arena reads its stats every minibatch too), global-norm clipping at 0.5, Adam. Two optimizers:
plain Adam (foreach=False, one kernel per parameter tensor) and foreach Adam (the multi-tensor
path). Weights and the batch come from the arena's fixture (files written by the bench), so both
sides start from the same numbers; the first step's loss and gradient norm are printed for the
bench to compare (the peer is checked to compute the same step, not just the same shapes).

Protocol: started with `--data DIR` (meta.json + raw little-endian arrays), it prints one JSON line
{"ready": true, torch, blas, blasBuild, threads, check: {loss, gradNorm}} and then answers each line
"plain SECONDS" / "foreach SECONDS" on stdin with {"impl", "steps", "wall", "cpu"} (steps run in
that window, wall seconds, CPU seconds of this process). "quit" ends it. Run it with
OPENBLAS_NUM_THREADS=1 (the bench sets it): the BLAS it reports is read from /proc/self/maps, the
libraries this process really mapped, not torch's build flags ("BLAS_INFO=generic" only says torch
was built against the generic BLAS interface; Debian's alternatives pick the library at run time).
Exits 3 with {"error": ...} when torch cannot be imported.
"""
import argparse
import json
import os
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--data", required=True)
args = parser.parse_args()

try:
    import torch
except Exception as e:  # noqa: BLE001 - any import failure means "no peer here"
    print(json.dumps({"error": f"python3 cannot import torch ({type(e).__name__}: {e})"}), flush=True)
    sys.exit(3)


def loaded_blas():
    """Real paths of the BLAS/LAPACK libraries mapped into this process (from /proc/self/maps)."""
    found = []
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                parts = line.split()
                if len(parts) < 6:
                    continue
                path = parts[5]
                name = os.path.basename(path).lower()
                if any(k in name for k in ("blas", "lapack", "mkl", "blis", "atlas")):
                    real = os.path.realpath(path)
                    if real not in found:
                        found.append(real)
    except OSError as e:
        return [f"unreadable /proc/self/maps ({e})"]
    return found


def blas_build():
    try:
        return torch.__config__.show().split("BLAS_INFO=")[1].split(",")[0].strip()
    except Exception:  # noqa: BLE001
        return ""


torch.set_num_threads(1)
with open(os.path.join(args.data, "meta.json")) as f:
    meta = json.load(f)


def read(name, dtype, shape):
    with open(os.path.join(args.data, name), "rb") as f:
        raw = bytearray(f.read())
    return torch.frombuffer(raw, dtype=dtype).reshape(shape).clone()


B, IN, A = meta["batch"], meta["inputSize"], meta["numActions"]
sizes = meta["sizes"]
x = read("x.bin", torch.float32, (B, IN))
masks = read("masks.bin", torch.float32, (B, A)) > 0
actions = read("actions.bin", torch.int32, (B,)).long()
old_logp = read("logp.bin", torch.float32, (B,))
adv = read("adv.bin", torch.float32, (B,))
ret = read("ret.bin", torch.float32, (B,))
clip, value_coef, entropy_coef = meta["clip"], meta["valueCoef"], meta["entropyCoef"]
max_norm, lr = meta["maxGradNorm"], meta["lr"]


def make_net():
    layers = []
    for l in range(len(sizes) - 1):
        lin = torch.nn.Linear(sizes[l], sizes[l + 1])
        with torch.no_grad():
            # the arena stores W as [in, out]; torch's Linear holds [out, in]
            lin.weight.copy_(read(f"w{l}.bin", torch.float32, (sizes[l], sizes[l + 1])).t())
            lin.bias.copy_(read(f"b{l}.bin", torch.float32, (sizes[l + 1],)))
        layers.append(lin)
        if l + 2 < len(sizes):
            layers.append(torch.nn.ReLU())
    return torch.nn.Sequential(*layers)


def make(foreach):
    net = make_net()
    opt = torch.optim.Adam(net.parameters(), lr=lr, betas=(meta["beta1"], meta["beta2"]), eps=meta["epsilon"], foreach=foreach)
    return net, opt


def step(net, opt):
    """One PPO minibatch step; returns (loss, grad norm) as floats (one read-back, as the arena's)."""
    opt.zero_grad(set_to_none=True)
    out = net(x)
    logits, value = out[:, :A], out[:, A]
    log_probs = torch.log_softmax(logits.masked_fill(~masks, -1e9), dim=1)
    probs = log_probs.exp()
    logp = log_probs.gather(1, actions[:, None]).squeeze(1)
    ratio = torch.exp(logp - old_logp)
    s1 = ratio * adv
    s2 = torch.clamp(ratio, 1 - clip, 1 + clip) * adv
    policy_loss = -torch.min(s1, s2).mean()
    entropy = -(probs * log_probs).sum(1).mean()  # illegal actions: probability exactly 0
    value_loss = (0.5 * (value - ret) ** 2).mean()
    loss = policy_loss + value_coef * value_loss - entropy_coef * entropy
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
    opt.step()
    with torch.no_grad():
        kl = (ratio - 1 - torch.log(ratio)).mean()
        clipped = (s1 > s2).float().mean()
        stats = torch.stack([loss.detach(), policy_loss.detach(), value_loss.detach(), entropy.detach(), kl, clipped, norm])
    v = stats.tolist()
    if v[0] != v[0] or v[6] != v[6]:
        raise RuntimeError("non-finite loss")
    return v[0], v[6]


check_loss, check_norm = step(*make(False))
nets = {"plain": make(False), "foreach": make(True)}
for impl in nets.values():
    for _ in range(3):
        step(*impl)
print(
    json.dumps(
        {
            "ready": True,
            "torch": torch.__version__,
            "blas": loaded_blas(),
            "blasBuild": blas_build(),
            "threads": torch.get_num_threads(),
            "check": {"loss": check_loss, "gradNorm": check_norm},
        }
    ),
    flush=True,
)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "quit":
        break
    impl, seconds = words[0], float(words[1])
    net, opt = nets[impl]
    steps = 0
    cpu0 = time.process_time()
    t0 = time.perf_counter()
    end = t0 + seconds
    while True:
        step(net, opt)
        steps += 1
        if time.perf_counter() >= end:
            break
    wall = time.perf_counter() - t0
    print(json.dumps({"impl": impl, "steps": steps, "wall": wall, "cpu": time.process_time() - cpu0}), flush=True)
