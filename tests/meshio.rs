//! Mesh I/O: fixtures read exactly in both number modes, STL welding, writer → reader round
//! trips, every error kind from a minimal bad file (with its line), and no panic on any bytes.

use std::path::{Path, PathBuf};

use num_rational::BigRational;
use proptest::prelude::*;
use touchstone::brep::io::{
    read_mesh, read_mesh_from, write_obj, write_off, Location, Mesh, MeshError, MeshErrorKind, MeshFormat, NumberMode,
    NumberStyle,
};
use touchstone::brep::{shapes, Solid};
use touchstone::geom::Point3;
use touchstone::scalar::{parse_rational, NumberError};

const MODES: [NumberMode; 2] = [NumberMode::Exact, NumberMode::Binary64];
const FORMATS: [MeshFormat; 3] = [MeshFormat::Off, MeshFormat::Obj, MeshFormat::Stl];

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/meshes").join(name)
}

fn q(s: &str) -> BigRational {
    parse_rational(s).unwrap()
}

fn pt(x: &str, y: &str, z: &str) -> Point3<BigRational> {
    Point3::new(q(x), q(y), q(z))
}

fn tetra_points() -> Vec<Point3<BigRational>> {
    vec![pt("0", "0", "0"), pt("1", "0", "0"), pt("0", "1", "0"), pt("0", "0", "1")]
}

const TETRA_FACES: [[usize; 3]; 4] = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];

/// A binary STL of the standard tetrahedron scaled by `s`, whose header starts with "solid".
fn binary_tetra(s: f32) -> Vec<u8> {
    let p = [[0.0, 0.0, 0.0], [s, 0.0, 0.0], [0.0, s, 0.0], [0.0, 0.0, s]];
    let mut bytes = b"solid but binary".to_vec();
    bytes.resize(80, b' ');
    bytes.extend_from_slice(&4u32.to_le_bytes());
    for f in TETRA_FACES {
        bytes.extend_from_slice(&[0u8; 12]); // normal: ignored
        for v in f {
            for c in p[v] {
                // -0 for 0: welding compares values, not bits.
                let c: f32 = if c == 0.0 && v == 3 { -0.0 } else { c };
                bytes.extend_from_slice(&c.to_le_bytes());
            }
        }
        bytes.extend_from_slice(&0u16.to_le_bytes());
    }
    bytes
}

fn read(text: &str, format: MeshFormat) -> Result<Mesh, MeshError> {
    read_mesh_from(text.as_bytes(), format, NumberMode::Exact)
}

#[test]
fn off_cube_reads_decimals_exactly_or_as_binary64() {
    let exact = read_mesh(&fixture("cube.off"), NumberMode::Exact).unwrap();
    assert_eq!((exact.vertices.len(), exact.faces.len()), (8, 6));
    assert_eq!(exact.vertices[7], pt("1/10", "1/10", "1/10"));
    assert_eq!(exact.faces[2], vec![0, 1, 5, 4], "colour values after the indices are ignored");
    let solid = exact.to_solid::<BigRational>().unwrap();
    assert_eq!((solid.vertex_count(), solid.edge_count(), solid.face_count()), (8, 12, 6));

    let binary = read_mesh(&fixture("cube.off"), NumberMode::Binary64).unwrap();
    let tenth = BigRational::from_float(0.1f64).unwrap();
    assert_ne!(tenth, q("0.1"));
    assert_eq!(binary.vertices[7], Point3::new(tenth.clone(), tenth.clone(), tenth));
    assert_eq!(binary.faces, exact.faces);
    binary.to_solid::<BigRational>().unwrap();
    binary.to_solid::<f64>().unwrap();
}

#[test]
fn obj_reference_forms_and_negative_indices() {
    let mesh = read_mesh(&fixture("tetra.obj"), NumberMode::Exact).unwrap();
    assert_eq!(mesh.vertices, tetra_points());
    assert_eq!(mesh.faces, TETRA_FACES.map(|f| f.to_vec()).to_vec());
    mesh.to_solid::<BigRational>().unwrap();
}

#[test]
fn stl_ascii_and_binary_weld_into_a_tetrahedron() {
    let ascii = read_mesh(&fixture("tetra_ascii.stl"), NumberMode::Exact).unwrap();
    // Ids in order of first appearance; -0 welds with 0.
    assert_eq!(ascii.vertices, vec![pt("0", "0", "0"), pt("0", "1", "0"), pt("1", "0", "0"), pt("0", "0", "1")]);
    assert_eq!(ascii.faces, vec![vec![0, 1, 2], vec![0, 2, 3], vec![0, 3, 1], vec![2, 1, 3]]);
    let solid = ascii.to_solid::<BigRational>().unwrap();
    assert_eq!((solid.vertex_count(), solid.face_count()), (4, 4));

    for mode in MODES {
        let binary = read_mesh_from(&binary_tetra(0.1), MeshFormat::Stl, mode).unwrap();
        let s = BigRational::from_float(f64::from(0.1f32)).unwrap();
        let zero = q("0");
        assert_eq!(binary.vertices.len(), 4);
        // First appearance: the first triangle is 0, 2, 1 of the tetrahedron.
        assert_eq!(binary.vertices[1], Point3::new(zero.clone(), s.clone(), zero.clone()));
        assert_eq!(binary.vertices[3], Point3::new(zero.clone(), zero, s));
        assert_eq!(binary.faces, ascii.faces);
        let solid = binary.to_solid::<BigRational>().unwrap();
        assert_eq!((solid.vertex_count(), solid.face_count()), (4, 4));
    }
}

#[test]
fn format_by_extension_in_any_case() {
    assert_eq!(MeshFormat::from_path(Path::new("a/b.OFF")), Some(MeshFormat::Off));
    assert_eq!(MeshFormat::from_path(Path::new("b.Obj")), Some(MeshFormat::Obj));
    assert_eq!(MeshFormat::from_path(Path::new("b.stl")), Some(MeshFormat::Stl));
    assert_eq!(MeshFormat::from_path(Path::new("b.ply")), None);
    assert_eq!(MeshFormat::from_path(Path::new("stl")), None);
}

fn assert_round_trips(mesh: &Mesh) {
    for format in [MeshFormat::Off, MeshFormat::Obj] {
        let mut out = Vec::new();
        match format {
            MeshFormat::Off => write_off(mesh, &mut out, NumberStyle::Exact).unwrap(),
            _ => write_obj(mesh, &mut out, NumberStyle::Exact).unwrap(),
        }
        let back = read_mesh_from(&out, format, NumberMode::Exact).unwrap();
        assert_eq!(&back, mesh, "{format:?}:\n{}", String::from_utf8_lossy(&out));

        // Nearest binary64: what other tools read, and what Binary64 mode reads back.
        let mut out = Vec::new();
        match format {
            MeshFormat::Off => write_off(mesh, &mut out, NumberStyle::NearestF64).unwrap(),
            _ => write_obj(mesh, &mut out, NumberStyle::NearestF64).unwrap(),
        }
        let rounded = Mesh {
            vertices: mesh.vertices.iter().map(|p| p.map(|c| BigRational::from_float(to_f64(&c)).unwrap())).collect(),
            faces: mesh.faces.clone(),
        };
        assert_eq!(read_mesh_from(&out, format, NumberMode::Binary64).unwrap(), rounded, "{format:?}");
    }
}

fn to_f64(c: &BigRational) -> f64 {
    num_traits::ToPrimitive::to_f64(c).unwrap()
}

#[test]
fn writers_round_trip_exactly() {
    let awkward = Mesh {
        vertices: vec![
            pt("0.1", "-1/3", "1e30"),
            Point3::new(BigRational::from_float(0.1).unwrap(), q("-2.5e-7"), BigRational::from_float(1e-310).unwrap()),
            pt("7/1024", "-123456789012345678901234567890", "22/7"),
        ],
        faces: vec![vec![0, 1, 2], vec![2, 1, 0, 1], vec![]],
    };
    assert_round_trips(&awkward);
    assert_round_trips(&read_mesh(&fixture("cube.off"), NumberMode::Exact).unwrap());

    // A solid writes as its mesh and reads back as the same solid.
    let cube: Solid<BigRational> = shapes::cuboid(q("1/3"), q("0.25"), q("5")).unwrap();
    let mut out = Vec::new();
    write_off(&cube, &mut out, NumberStyle::Exact).unwrap();
    assert!(String::from_utf8_lossy(&out).starts_with("OFF\n8 6 12\n"));
    let back = read_mesh_from(&out, MeshFormat::Off, NumberMode::Exact).unwrap().to_solid::<BigRational>().unwrap();
    assert_eq!(back, cube);
    let mut out = Vec::new();
    write_obj(&shapes::cube::<f64>(), &mut out, NumberStyle::NearestF64).unwrap();
    let back = read_mesh_from(&out, MeshFormat::Obj, NumberMode::Binary64).unwrap();
    assert_eq!(back, Mesh::from(&shapes::cube::<f64>()));
}

#[test]
fn nearest_f64_output_refuses_values_beyond_binary64() {
    let mesh = Mesh { vertices: vec![pt("0", "1e400", "0")], faces: vec![] };
    let e = write_off(&mesh, Vec::new(), NumberStyle::NearestF64).unwrap_err();
    assert!(matches!(e.kind, MeshErrorKind::NotRepresentable { vertex: 0, coordinate: 1 }), "{e}");
    write_off(&mesh, Vec::new(), NumberStyle::Exact).unwrap();
}

/// The error of reading `text` as `format`, checked to be at `line`.
fn error_at(text: &str, format: MeshFormat, mode: NumberMode, line: usize) -> MeshErrorKind {
    let e = read_mesh_from(text.as_bytes(), format, mode).expect_err(text);
    assert_eq!(e.at, Location::Line(line), "{text:?}: {e}");
    assert!(e.to_string().starts_with(&format!("line {line}: ")), "{e}");
    e.kind
}

const OFF_HEAD: &str = "OFF\n4 4 6\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n";
const OFF_FACES: &str = "3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n";

#[test]
fn off_counts_may_share_the_header_line() {
    let two_lines = read(&format!("{OFF_HEAD}{OFF_FACES}"), MeshFormat::Off).unwrap();
    let one_line = read(&format!("{}{OFF_FACES}", OFF_HEAD.replacen("OFF\n", "OFF ", 1)), MeshFormat::Off).unwrap();
    assert_eq!(one_line, two_lines);
    assert_eq!(two_lines, Mesh { vertices: tetra_points(), faces: TETRA_FACES.map(|f| f.to_vec()).to_vec() });
}

#[test]
fn off_errors_name_the_line_and_element() {
    use MeshErrorKind as K;
    let off = |text: &str, line| error_at(text, MeshFormat::Off, NumberMode::Exact, line);
    assert!(matches!(off("# c\nCOFF\n", 2), K::BadHeader { found, .. } if found == "COFF"));
    assert!(matches!(off("", 1), K::UnexpectedEof { .. }));
    assert!(matches!(off("OFF\n4 x 6\n", 2), K::BadCount { text, .. } if text == "x"));
    assert!(matches!(off("OFF 4 4 6 1\n", 1), K::BadCount { .. }));
    assert!(matches!(off("OFF\n100000001 4 0\n", 2), K::TooMany { count: 100_000_001, .. }));
    assert!(read("OFF\n100000001 4 0\n", MeshFormat::Off).unwrap_err().is_limit());
    assert!(matches!(off("OFF\n4 4 6\n0 0 0\n1 0\n", 4), K::WrongCoordinateCount { vertex: 1, found: 2, .. }));
    let bad = off("OFF\n4 4 6\n\n0 0 0\n1 0 abc\n", 5);
    let z1 = "coordinate z of vertex 1";
    assert!(matches!(&bad, K::BadNumber { element, error: NumberError::Invalid { .. } } if element == z1));
    let e = read("OFF\n4 4 6\n0 0 1e10001\n", MeshFormat::Off).unwrap_err();
    assert!(e.is_limit() && matches!(e.kind, K::BadNumber { .. }), "{e}");
    let text = format!("{OFF_HEAD}3 0 2 1\n3 0 1 4\n");
    assert!(matches!(off(&text, 8), K::IndexOutOfRange { face: 1, position: 2, index: 4, count: 4 }));
    let text = format!("{OFF_HEAD}3 0 2 -1\n");
    assert!(matches!(off(&text, 7), K::IndexOutOfRange { face: 0, position: 2, index: -1, .. }));
    let text = format!("{OFF_HEAD}3 0 2 one\n");
    assert!(matches!(off(&text, 7), K::BadIndex { face: 0, position: 2, .. }));
    let text = format!("{OFF_HEAD}3 0 2\n");
    assert!(matches!(off(&text, 7), K::MissingIndices { face: 0, expected: 3, found: 2 }));
    let text = format!("{OFF_HEAD}3 0 2 1\n3 0 1 3\n");
    assert!(matches!(off(&text, 8), K::UnexpectedEof { expected } if expected == "face 2 of 4"));
    let text = format!("{OFF_HEAD}{OFF_FACES}3 1 2 3\n");
    assert!(matches!(off(&text, 11), K::TrailingData { .. }));
    // Binary64 mode: p/q is not a binary64 number, and 1e400 overflows.
    let b64 = |text: &str, line| error_at(text, MeshFormat::Off, NumberMode::Binary64, line);
    assert!(matches!(b64("OFF\n4 4 6\n0 0 1/2\n", 3), K::BadNumber { error: NumberError::Invalid { .. }, .. }));
    assert!(matches!(b64("OFF\n4 4 6\n0 0 1e400\n", 3), K::BadNumber { error: NumberError::NotFinite(_), .. }));
    assert!(matches!(b64("OFF\n4 4 6\n0 nan 0\n", 3), K::BadNumber { error: NumberError::NotFinite(_), .. }));
}

#[test]
fn obj_errors_name_the_line_and_element() {
    use MeshErrorKind as K;
    let obj = |text: &str, line| error_at(text, MeshFormat::Obj, NumberMode::Exact, line);
    assert!(matches!(obj("v 0 0\n", 1), K::WrongCoordinateCount { vertex: 0, found: 2, .. }));
    assert!(
        matches!(obj("v 0 0 0\nv 0 x 0\n", 2), K::BadNumber { element, .. } if element == "coordinate y of vertex 1")
    );
    assert!(matches!(obj("v 0 0 0 2\n", 1), K::Unsupported { .. }));
    read("v 0 0 0 1.0\nv 0 0 0 1 0.5 0.5\n", MeshFormat::Obj).unwrap();
    let v3 = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
    assert!(matches!(
        obj(&format!("{v3}f 1 2 4\n"), 4),
        K::IndexOutOfRange { face: 0, position: 2, index: 4, count: 3 }
    ));
    assert!(matches!(obj(&format!("{v3}f 1 2 3\nf 1 -4 2\n"), 5), K::IndexOutOfRange { face: 1, index: -4, .. }));
    assert!(matches!(obj(&format!("{v3}f 3 2 1 4\nv 0 0 1\n"), 4), K::IndexOutOfRange { index: 4, .. }));
    assert!(matches!(obj(&format!("{v3}f 0 1 2\n"), 4), K::BadIndex { position: 0, .. }));
    assert!(matches!(obj(&format!("{v3}f 1/1/1/1 2 3\n"), 4), K::BadIndex { position: 0, .. }));
    assert!(matches!(obj(&format!("{v3}f 1 2/ 3\n"), 4), K::BadIndex { position: 1, .. }));
    assert!(matches!(obj(&format!("{v3}f 1 2 x\n"), 4), K::BadIndex { position: 2, .. }));
    assert!(matches!(obj("# c\ncurv 0 1 1 2\n", 2), K::Unsupported { element, .. } if element == "curv"));
    assert!(matches!(obj("v 0 0 0\nfoo bar\n", 2), K::Unsupported { element, .. } if element == "foo"));
}

const FACET: &str = "facet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n";

#[test]
fn stl_errors_name_the_line_or_record() {
    use MeshErrorKind as K;
    let stl = |text: &str, line| error_at(text, MeshFormat::Stl, NumberMode::Exact, line);
    read(&format!("solid s\n{FACET}endsolid s\n"), MeshFormat::Stl).unwrap();
    // Two solids in one file make one mesh.
    let two = read(&format!("solid a\n{FACET}endsolid a\nsolid b\n{FACET}endsolid\n"), MeshFormat::Stl).unwrap();
    assert_eq!((two.vertices.len(), two.faces.len()), (3, 2));
    assert!(matches!(stl(&format!("solid s\n{FACET}"), 8), K::UnexpectedEof { .. }));
    let text = "solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nendloop\n";
    assert!(matches!(stl(text, 6), K::UnexpectedToken { expected: "vertex", found } if found == "endloop"));
    let text = "solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 q\n";
    assert!(matches!(stl(text, 5), K::BadNumber { element, .. } if element == "coordinate z of corner 1 of facet 0"));
    assert!(matches!(stl(&format!("solid s\n{FACET}endsolid s\nx\n"), 10), K::TrailingData { .. }));
    assert!(matches!(stl("solid s\nface\n", 2), K::UnexpectedToken { .. }));

    let bin = |bytes: &[u8]| read_mesh_from(bytes, MeshFormat::Stl, NumberMode::Exact).unwrap_err();
    let tetra = binary_tetra(1.0);
    let mut short = tetra.clone();
    short[0] = b'x'; // not "solid": a binary file of the wrong size
    short.truncate(84 + 50 * 3 + 10);
    let e = bin(&short);
    assert_eq!(e.at, Location::Record(3), "{e}");
    assert!(matches!(e.kind, K::TruncatedBinary { count: 4, expected: 284, found: 244 }), "{e}");
    // A damaged binary file whose header starts with "solid" is still reported as binary.
    let mut solid_header = tetra.clone();
    solid_header.truncate(84 + 50 * 3 + 10);
    assert!(matches!(bin(&solid_header).kind, K::TruncatedBinary { count: 4, .. }));
    let e = bin(b"tiny");
    assert!(matches!(e.kind, K::TruncatedBinary { count: 0, found: 4, .. }), "{e}");
    let mut long = tetra.clone();
    long[0] = b'x';
    long.push(0);
    let e = bin(&long);
    assert!(matches!(e.kind, K::TrailingData { .. }) && e.at == Location::Record(4), "{e}");
    let mut huge = tetra.clone();
    huge[80..84].copy_from_slice(&u32::MAX.to_le_bytes());
    huge[0] = b'x';
    assert!(bin(&huge).is_limit());
    let mut nan = tetra;
    nan[84 + 50 * 2 + 12 + 4..][..4].copy_from_slice(&f32::NAN.to_le_bytes());
    let e = bin(&nan);
    let y0 = "coordinate y of corner 0";
    assert!(matches!(&e.kind, K::BadNumber { element, error: NumberError::NotFinite(_) } if element == y0), "{e}");
    assert_eq!(e.at, Location::Record(2));
}

#[test]
fn path_errors_name_the_file() {
    let missing = fixture("missing.off");
    let e = read_mesh(&missing, NumberMode::Exact).unwrap_err();
    assert!(matches!(e.kind, MeshErrorKind::Io(_)) && e.file.as_deref() == Some(missing.as_path()), "{e}");
    let e = read_mesh(Path::new("mesh.ply"), NumberMode::Exact).unwrap_err();
    assert!(matches!(&e.kind, MeshErrorKind::UnknownFormat { extension } if extension == "ply"), "{e}");

    let dir = std::env::temp_dir().join(format!("touchstone-meshio-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.OFF");
    std::fs::write(&path, "OFF\n4 4 6\n0 0 0\n1 0 0\n0 1\n").unwrap();
    let e = read_mesh(&path, NumberMode::Exact).unwrap_err();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(e.file.as_deref(), Some(path.as_path()));
    assert_eq!(e.to_string(), format!("{}: line 5: vertex 2 has 2 values: expected 3", path.display()));
}

fn valid_inputs() -> Vec<(MeshFormat, Vec<u8>)> {
    let file = |name: &str| std::fs::read(fixture(name)).unwrap();
    vec![
        (MeshFormat::Off, file("cube.off")),
        (MeshFormat::Obj, file("tetra.obj")),
        (MeshFormat::Stl, file("tetra_ascii.stl")),
        (MeshFormat::Stl, binary_tetra(0.1)),
    ]
}

/// An edit of a byte string: overwrite, insert or delete at a position (taken modulo length).
#[derive(Clone, Debug)]
enum Edit {
    Set(usize, u8),
    Insert(usize, u8),
    Delete(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    // Bytes that matter to the grammars, besides arbitrary ones.
    let byte = prop_oneof![any::<u8>(), proptest::sample::select(b" \n\r#/-.e0123456789vf".to_vec())];
    prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(i, b)| Edit::Set(i, b)),
        (any::<usize>(), byte).prop_map(|(i, b)| Edit::Insert(i, b)),
        any::<usize>().prop_map(Edit::Delete),
    ]
}

fn apply(bytes: &mut Vec<u8>, edit: Edit) {
    let n = bytes.len();
    match edit {
        Edit::Set(i, b) if n > 0 => bytes[i % n] = b,
        Edit::Insert(i, b) => bytes.insert(i % (n + 1), b),
        Edit::Delete(i) if n > 0 => {
            bytes.remove(i % n);
        }
        _ => {}
    }
}

proptest! {
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        for format in FORMATS {
            for mode in MODES {
                let _ = read_mesh_from(&bytes, format, mode);
            }
        }
    }

    #[test]
    fn random_binary_stl_records_never_panic(n in 0usize..6, seed in proptest::collection::vec(any::<u8>(), 50 * 6)) {
        let mut bytes = vec![0u8; 80];
        bytes.extend_from_slice(&(n as u32).to_le_bytes());
        bytes.extend_from_slice(&seed[..50 * n]);
        if let Ok(mesh) = read_mesh_from(&bytes, MeshFormat::Stl, NumberMode::Exact) {
            prop_assert_eq!(mesh.faces.len(), n);
        }
    }

    #[test]
    fn mutated_valid_files_never_panic(which in 0usize..4, edits in proptest::collection::vec(edit(), 1..8)) {
        let (format, mut bytes) = valid_inputs().swap_remove(which);
        for e in edits {
            apply(&mut bytes, e);
        }
        for mode in MODES {
            if let Ok(mesh) = read_mesh_from(&bytes, format, mode) {
                // A reader guarantees face indices in range; validation must not panic either.
                prop_assert!(mesh.faces.iter().flatten().all(|&v| v < mesh.vertices.len()));
                let _ = mesh.to_solid::<BigRational>();
            }
        }
    }

    #[test]
    fn exact_writers_round_trip(
        coords in proptest::collection::vec((any::<i64>(), 1..=i64::MAX), 3..30),
        doubles in proptest::collection::vec(any::<f64>().prop_filter("finite", |v| v.is_finite()), 0..9),
    ) {
        let mut values: Vec<BigRational> = coords.iter().map(|&(p, d)| BigRational::new(p.into(), d.into())).collect();
        values.extend(doubles.iter().map(|&v| BigRational::from_float(v).unwrap()));
        let vertices: Vec<_> =
            values.chunks_exact(3).map(|c| Point3::new(c[0].clone(), c[1].clone(), c[2].clone())).collect();
        let n = vertices.len();
        let faces = (0..n).map(|i| vec![i, (i + 1) % n, (i + 2) % n]).collect();
        assert_round_trips(&Mesh { vertices, faces });
    }
}
