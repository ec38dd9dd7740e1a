/**
 * L2-penalised logistic regression fitted by Newton's method: with a few dozen features the Hessian is a
 * small dense matrix, so each step is one pass over the rows plus a Cholesky solve, and a dozen steps
 * reach the optimum gradient descent needs thousands of epochs to approach. Written here because the
 * whole solver is forty lines and a numeric library would be a dependency for one call. The bias (column
 * 0) is not penalised. `weight` counts each row (defaults to 1). Deterministic.
 */
export function fitLogisticNewton(
  x: Float64Array,
  y: ArrayLike<number>,
  dims: number,
  options: { readonly l2?: number; readonly steps?: number; readonly weight?: ArrayLike<number> } = {},
): { weights: Float64Array; loss: number } {
  const rows = y.length;
  const l2 = options.l2 ?? 1e-3;
  const steps = options.steps ?? 25;
  const w = new Float64Array(dims);
  const grad = new Float64Array(dims);
  const hess = new Float64Array(dims * dims);
  let total = 0;
  for (let r = 0; r < rows; r++) total += options.weight?.[r] ?? 1;
  let loss = 0;
  for (let step = 0; step < steps; step++) {
    grad.fill(0);
    hess.fill(0);
    loss = 0;
    for (let r = 0; r < rows; r++) {
      const o = r * dims;
      let z = 0;
      for (let d = 0; d < dims; d++) z += w[d]! * x[o + d]!;
      const e = Math.exp(-Math.abs(z));
      const p = z >= 0 ? 1 / (1 + e) : e / (1 + e);
      const c = options.weight?.[r] ?? 1;
      loss += c * (Math.max(z, 0) - z * y[r]! + Math.log1p(e));
      const g = c * (p - y[r]!);
      const h = c * p * (1 - p);
      for (let a = 0; a < dims; a++) {
        const xa = x[o + a]!;
        if (xa === 0) continue;
        grad[a] = grad[a]! + g * xa;
        for (let b = a; b < dims; b++) hess[a * dims + b] = hess[a * dims + b]! + h * xa * x[o + b]!;
      }
    }
    for (let a = 0; a < dims; a++) {
      grad[a] = grad[a]! / total + (a === 0 ? 0 : l2 * w[a]!);
      for (let b = a; b < dims; b++) {
        const v = hess[a * dims + b]! / total + (a === b && a !== 0 ? l2 : 0) + (a === b ? 1e-9 : 0);
        hess[a * dims + b] = v;
        hess[b * dims + a] = v;
      }
    }
    const delta = solveCholesky(hess, grad, dims);
    let size = 0;
    for (let d = 0; d < dims; d++) {
      w[d] = w[d]! - delta[d]!;
      size = Math.max(size, Math.abs(delta[d]!));
    }
    if (size < 1e-9) break;
  }
  return { weights: w, loss: loss / (total || 1) };
}

/** Solves A·v = b for a symmetric positive-definite A (row-major, n × n). */
function solveCholesky(a: Float64Array, b: Float64Array, n: number): Float64Array {
  const l = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i * n + j]!;
      for (let k = 0; k < j; k++) s -= l[i * n + k]! * l[j * n + k]!;
      l[i * n + j] = i === j ? Math.sqrt(Math.max(s, 1e-12)) : s / l[j * n + j]!;
    }
  }
  const z = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= l[i * n + k]! * z[k]!;
    z[i] = s / l[i * n + i]!;
  }
  const v = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = z[i]!;
    for (let k = i + 1; k < n; k++) s -= l[k * n + i]! * v[k]!;
    v[i] = s / l[i * n + i]!;
  }
  return v;
}
