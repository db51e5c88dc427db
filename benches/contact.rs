//! Contact analysis of nonconvex solids, exact (`touchstone::contact::find_contacts` on
//! `Exact`, the exact path's backend) with and without back-face culling, and `f64` (the ε
//! pipeline of Vaněček 1990, `find_contacts_within`, ε = 10⁻⁹ of the scale), in one run: a comb
//! resting on a slab (its bottom face on the slab: one large face-on-face region), two combs
//! meshed tooth in gap (every tooth's sides against the other's: many face-on-face regions), and
//! a meshed comb of about 10,000 faces (its caps cut into unit cells, no face larger than a
//! tooth) on a slab. Prints the region counts and the largest bit size (numerator plus
//! denominator) of a region's coordinates.
//!
//! `cargo bench --bench contact`

mod common;
use common::mean_ns;

use std::hint::black_box;

use criterion::Criterion;
use touchstone::brep::{shapes, Solid};
use touchstone::contact::{find_contacts, find_contacts_within, ContactOptions, Motion, TolerantOptions};
use touchstone::geom::{Affine, Point3, Vector3};
use touchstone::scalar::{Exact, Scalar};

type S = Exact;

fn n(x: i64) -> S {
    S::from_i64(x)
}

fn moved(s: &Solid<S>, t: [i64; 3]) -> Solid<S> {
    s.transformed(&Affine::translation(Vector3::new(n(t[0]), n(t[1]), n(t[2])))).unwrap()
}

/// The comb with `teeth` teeth (4·teeth + 2 faces), its base at y = 0.
fn comb(teeth: usize) -> Solid<S> {
    shapes::comb(teeth).unwrap()
}

/// The comb with `teeth` teeth with its caps cut into unit squares and the teeth's rectangles
/// (the profile's bottom and end edges split at every grid point, so no face has a T-junction):
/// about 12 faces a tooth, none with more than 4 sides but the profile's sides.
fn meshed_comb(teeth: usize) -> Solid<S> {
    let t = teeth.max(1) as i64;
    let mut pts: Vec<(i64, i64)> = (0..2 * t).map(|i| (i, 0)).collect();
    pts.push((2 * t - 1, 1));
    for k in (0..t).rev() {
        let x = 2 * k;
        pts.extend([(x + 1, 3), (x, 3)]);
        if k > 0 {
            pts.extend([(x, 1), (x - 1, 1)]);
        }
    }
    pts.push((0, 1));
    let m = pts.len();
    let at = |p: (i64, i64)| pts.iter().position(|q| *q == p).expect("a profile point");
    let mut vertices: Vec<Point3<S>> = pts.iter().map(|&(x, y)| Point3::new(n(x), n(y), n(0))).collect();
    vertices.extend(pts.iter().map(|&(x, y)| Point3::new(n(x), n(y), n(1))));
    let mut cells: Vec<[(i64, i64); 4]> = (0..2 * t - 1).map(|i| [(i, 0), (i + 1, 0), (i + 1, 1), (i, 1)]).collect();
    cells.extend((0..t).map(|k| [(2 * k, 1), (2 * k + 1, 1), (2 * k + 1, 3), (2 * k, 3)]));
    let mut faces = Vec::new();
    for c in &cells {
        let ids = c.map(at);
        faces.push(ids.iter().rev().copied().collect::<Vec<_>>());
        faces.push(ids.iter().map(|&i| i + m).collect());
    }
    for j in 0..m {
        let k = (j + 1) % m;
        faces.push(vec![j, k, m + k, m + j]);
    }
    Solid::new(vertices, faces).unwrap()
}

fn cases() -> Vec<(String, Solid<S>, Solid<S>)> {
    let mut out = Vec::new();
    // About 10,000 faces: a meshed comb of 800 teeth on a slab.
    let teeth = 800usize;
    let width = 2 * teeth as i64;
    let slab = moved(&shapes::cuboid(n(width), n(1), n(1)).unwrap(), [width / 2, -1, 0]);
    out.push((format!("meshed_comb_{teeth}_on_slab"), meshed_comb(teeth), fix_z(&slab)));
    for teeth in [64usize, 256] {
        let c = comb(teeth);
        let width = 2 * teeth as i64;
        // A slab under the comb's base (y ≤ 0), as wide: the comb rests on it.
        let slab = shapes::cuboid(n(width), n(1), n(1)).unwrap();
        let slab = moved(&slab, [width / 2, -1, 0]);
        out.push((format!("comb_{teeth}_on_slab"), c.clone(), fix_z(&slab)));
        // A second comb turned half about z and shifted: its teeth in the first one's gaps.
        let turn = Affine::from_quaternion(&[n(0), n(0), n(0), n(1)], Vector3::new(n(width), n(4), n(0))).unwrap();
        out.push((format!("combs_{teeth}_meshed"), c.clone(), c.transformed(&turn).unwrap()));
    }
    out
}

/// The slab moved to the comb's z range [0, 1].
fn fix_z(s: &Solid<S>) -> Solid<S> {
    let lo = s.vertices().iter().map(|p| p.z.clone()).fold(None, |m: Option<S>, z| match m {
        Some(m) if m.compare(&z).ok() != Some(std::cmp::Ordering::Greater) => Some(m),
        _ => Some(z),
    });
    let shift = n(0) - lo.unwrap_or_else(|| n(0));
    s.transformed(&Affine::translation(Vector3::new(n(0), n(0), shift))).unwrap()
}

fn bits(x: &S) -> u64 {
    x.to_rational().map_or(0, |q| q.numer().bits() + q.denom().bits())
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let mut g = c.benchmark_group("contact");
    g.sample_size(10);
    let still =
        Motion { linear: Vector3::from_element(n(0)), angular: Vector3::from_element(n(0)), center: Point3::origin() };
    // Lifting off the slab / out of the mesh: everything in contact moves apart along +y.
    let lifting = Motion { linear: Vector3::new(n(0), n(1), n(0)), ..still.clone() };
    let mut report = Vec::new();
    let mut floats = Vec::new();
    for (name, a, b) in cases() {
        let plain = ContactOptions::default();
        let culling = ContactOptions { motions: Some((lifting.clone(), still.clone())), ..ContactOptions::default() };
        let found = find_contacts(&a, &b, &plain).unwrap();
        let culled = find_contacts(&a, &b, &culling).unwrap();
        let max_bits = found
            .regions
            .iter()
            .flat_map(|r| r.points.iter().chain(r.holes.iter().flatten()))
            .flat_map(|p| p.iter().map(bits).collect::<Vec<_>>())
            .max()
            .unwrap_or(0);
        report.push((
            name.clone(),
            a.face_count() + b.face_count(),
            found.status,
            found.regions.len(),
            found.contacts.len(),
            culled.culled.len(),
            max_bits,
        ));
        g.bench_function(format!("{name}/exact"), |bch| bch.iter(|| black_box(find_contacts(&a, &b, &plain).unwrap())));
        g.bench_function(format!("{name}/exact_culling"), |bch| {
            bch.iter(|| black_box(find_contacts(&a, &b, &culling).unwrap()))
        });
        let (fa, fb) = (a.convert::<f64>().unwrap(), b.convert::<f64>().unwrap());
        let scale =
            fa.vertices().iter().chain(fb.vertices()).flat_map(|p| p.iter().map(|c| c.abs())).fold(0.0, f64::max);
        let within = TolerantOptions { epsilon: scale / 1e9, motions: None };
        let tolerant = find_contacts_within(&fa, &fb, &within).unwrap();
        floats.push((name.clone(), tolerant.status, tolerant.points.len(), tolerant.contacts.len()));
        g.bench_function(format!("{name}/f64"), |bch| {
            bch.iter(|| black_box(find_contacts_within(&fa, &fb, &within).unwrap()))
        });
    }
    g.finish();
    c.final_summary();
    println!("\ncontact (exact): faces in both, status, |I_t|, |R_t|, culled when lifting, max bits, time");
    for (name, faces, status, it, rt, culled, max_bits) in report {
        let t =
            mean_ns("contact", &format!("{name}/exact")).map_or(String::from("—"), |t| format!("{:.1} ms", t / 1e6));
        let tc = mean_ns("contact", &format!("{name}/exact_culling"))
            .map_or(String::from("—"), |t| format!("{:.1} ms", t / 1e6));
        println!("  {name:24} {faces:6} {status:?} {it:6} {rt:6} {culled:6} {max_bits:5} bits  {t} ({tc} culling)");
    }
    println!("\ncontact (f64, ε rules): status, contact points, clusters, time");
    for (name, status, points, clusters) in floats {
        let t =
            mean_ns("contact", &format!("{name}/f64")).map_or(String::from("—"), |t| format!("{:.2} ms", t / 1e6));
        println!("  {name:24} {status:?} {points:6} {clusters:6}  {t}");
    }
}
