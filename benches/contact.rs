//! Contact analysis (`touchstone::contact::find_contacts`) of nonconvex solids, exact (`Exact`,
//! the exact path's backend), with and without back-face culling, in one run: a comb resting
//! on a slab (its bottom face on the slab: one large face-on-face region) and two combs meshed
//! tooth in gap (every tooth's sides against the other's: many face-on-face regions). Prints
//! the region counts and the largest bit size (numerator plus denominator) of a region's
//! coordinates.
//!
//! `cargo bench --bench contact`

mod common;
use common::mean_ns;

use std::hint::black_box;

use criterion::Criterion;
use touchstone::brep::{shapes, Solid};
use touchstone::contact::{find_contacts, ContactOptions, Motion};
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

fn cases() -> Vec<(String, Solid<S>, Solid<S>)> {
    let mut out = Vec::new();
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
}
