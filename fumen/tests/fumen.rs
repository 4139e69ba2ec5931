//! The fumen codec against sfinder's data, known strings, hand-checked solutions and
//! fuzzing.

use pc_bitboard::Board32;
use pc_fumen::{self as fumen, Cell, ColoredField, Fumen, FumenError, Page};
use pc_srs::{Orientation, Piece, Placement};
use proptest::prelude::*;

#[path = "../../bitboard/tests/support/edit.rs"]
mod edit;
use edit::edited;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn percent_csv(name: &str) -> String {
    let path = format!(
        "{}/../testdata/sfinder/percent/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("missing test data {path}: {e}"))
}

/// `(fumen, clear line)` of every command line of sfinder's percent tables.
fn percent_fumens() -> Vec<(String, u32)> {
    let mut out = Vec::new();
    for name in ["hold1.csv", "hold2.csv", "nohold1.csv", "nohold2.csv"] {
        for line in percent_csv(name).lines().filter(|l| l.starts_with('"')) {
            let words: Vec<&str> = line.split(['"', ' ']).collect();
            let after = |flag: &str| {
                let i = words.iter().position(|w| *w == flag).expect(flag);
                words[i + 1]
            };
            out.push((after("-t").to_string(), after("-c").parse().unwrap()));
        }
    }
    assert_eq!(out.len(), 4000);
    out
}

fn board(text: &str) -> Board32 {
    text.parse().unwrap()
}

fn place(piece: Piece, orientation: Orientation, x: i32, y: i32) -> Placement {
    piece.with(orientation).at(x, y).unwrap()
}

/// One page with no field change, written from the format's definition (not the codec):
/// a piece of fumen kind `kind`, fumen rotation `rotation`, at fumen location `location`,
/// with the colour flag set and lock.
fn one_page(kind: u32, rotation: u32, location: u32) -> String {
    let value = kind + 8 * (rotation + 4 * (location + 240 * 4));
    let digits = [value % 64, value / 64 % 64, value / 4096];
    let mut s = String::from("v115@vhA"); // empty field, one run of 240, repeat 0
    s.extend(digits.iter().map(|&d| ALPHABET[d as usize] as char));
    s
}

#[test]
fn sfinder_percent_fumens() {
    for (text, clear_line) in percent_fumens() {
        let f = fumen::decode(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(f.pages.len(), 1, "{text}");
        let page = &f.pages[0];
        assert_eq!(page.piece(), None);
        assert!(page.lock() && page.colour() && page.comment().is_none());
        let field = f.first_field().unwrap();
        assert_eq!(field, page.field_board());
        assert!(
            !field.has_cells_at_or_above(clear_line),
            "{text}: a cell at or above the clear line {clear_line}"
        );
        let empty = 10 * clear_line - field.cell_count();
        assert_eq!(
            empty % 4,
            0,
            "{text}: {empty} empty cells below the clear line"
        );
        assert_eq!(page.field().height(), field.height());
        // Every cell is gray, as sfinder writes fields.
        for (x, y) in field.cells() {
            assert_eq!(page.field().cell(x, y), Cell::Gray);
        }
        // Round trip: the same pages, and the very same string.
        let again = fumen::encode(&f);
        assert_eq!(fumen::decode(&again).as_ref(), Ok(&f), "{text}");
        assert_eq!(again, text);
    }
}

#[test]
fn opener_fields() {
    let cases = [
        (
            "v115@9gE8DeG8CeH8BeG8CeA8JeAgH",
            "#####....#/######...#/#######..#/######...#",
        ),
        (
            "v115@9gB8EeF8DeG8CeF8DeC8JeAgH",
            "##.....###/###....###/####...###/###....###",
        ),
        (
            "v115@9gF8DeF8DeF8DeF8NeAgH",
            "######..../######..../######..../######....",
        ),
    ];
    for (text, want) in cases {
        let f = fumen::decode(text).unwrap();
        assert_eq!(f.first_field().unwrap(), board(want), "{text}");
        assert_eq!(f.first_field().unwrap().to_text(4, "/"), want);
    }
}

#[test]
fn prefixes_urls_and_breaks() {
    let want = fumen::decode("v115@9gE8DeG8CeH8BeG8CeA8JeAgH").unwrap();
    for text in [
        "m115@9gE8DeG8CeH8BeG8CeA8JeAgH",
        "d115@9gE8DeG8CeH8BeG8CeA8JeAgH",
        "https://harddrop.com/fumen/?v115@9gE8DeG8CeH8BeG8CeA8JeAgH",
        "http://fumen.zui.jp/?v115@9gE8DeG8CeH8BeG8CeA8JeAgH",
        "https://knewjade.github.io/fumen-for-mobile/?d=v115@9gE8DeG8CeH8BeG8CeA8JeAgH&x=1",
        "v115@9gE8DeG8C?eH8BeG8C?eA8JeAgH",
        "  v115@9gE8 DeG8CeH8BeG8CeA8JeAgH\n",
    ] {
        assert_eq!(fumen::decode(text).as_ref(), Ok(&want), "{text}");
    }
    assert_eq!(
        "v115@9gE8DeG8CeH8BeG8CeA8JeAgH".parse::<Fumen>().as_ref(),
        Ok(&want)
    );
    assert_eq!(want.to_string(), "v115@9gE8DeG8CeH8BeG8CeA8JeAgH");
}

/// Strings from tetris-fumen's tests (MIT, knewjade): the pages they describe, and a
/// byte-exact round trip (without the `?` breaks, which this encoder does not write).
#[test]
fn tetris_fumen_vectors() {
    let vectors = [
        "v115@vhAAgH",
        "v115@vhBAgHAAA",
        "v115@RhA8IeB8HeC8GeAQLvhAAAA",
        "v115@RhA8IeB8HeC8GeAYJvhAAAA",
        "v115@vhARQJ",
        "v115@vhDAgWFAooMDEPBAAAAAPFA3XaDEEBAAAAAAAAPDAF?rmAA",
        "v115@vhGSSYXAFLDmClcJSAVDEHBEooRBMoAVBUtfBAXsBA?AANrBmnBAAAAAA",
        "v115@vhAAgl",
        "v115@vhCWSYVAFLDmClcJSAVDEHBEooRBKoAVB6AAAAUoBT?pB",
        "v115@vhBSSYaAFLDmClcJSAVDEHBEooRBPoAVBTejWC0/AA?AAAA",
    ];
    for text in vectors {
        let f = fumen::decode(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(fumen::encode(&f), text.replace('?', ""), "{text}");
    }

    // Empty; "No lock".
    let f = fumen::decode("v115@vhAAgH").unwrap();
    assert_eq!(
        f.pages,
        vec![{
            let mut p = Page::new(ColoredField::new());
            p.set_colour(true);
            p
        }]
    );
    assert!(!fumen::decode("v115@vhAAgl").unwrap().pages[0].lock());

    // I spawn at (4, 0).
    let f = fumen::decode("v115@vhARQJ").unwrap();
    let i = f.pages[0].piece().unwrap();
    assert_eq!(i, place(Piece::I, Orientation::Spawn, 4, 0));
    assert_eq!(i.cells(), [(3, 0), (4, 0), (5, 0), (6, 0)]);
    assert_eq!(f.first_field().unwrap(), board("...####..."));

    // Mirror: the next page starts mirrored; the garbage row is kept.
    let f = fumen::decode("v115@RhA8IeB8HeC8GeAQLvhAAAA").unwrap();
    let field: ColoredField = "X.........\nXX........".parse().unwrap();
    assert_eq!(f.pages[0].field().to_string(), field.to_string());
    assert!(f.pages[0].mirror());
    assert_eq!(
        (0..10)
            .map(|x| f.pages[0].field().garbage(x).to_char())
            .collect::<String>(),
        "XXX......."
    );
    assert_eq!(f.pages[0].field_board(), board("#.........\n##........"));
    assert_eq!(f.pages[1].field_board(), board(".........#\n........##"));
    assert_eq!(f.pages[1].field().garbage(2), Cell::Gray);

    // Rise: the garbage row rises into the field and empties.
    let f = fumen::decode("v115@RhA8IeB8HeC8GeAYJvhAAAA").unwrap();
    assert!(f.pages[0].rise());
    assert_eq!(
        f.pages[1].field_board(),
        board("#.........\n##........\n###.......")
    );
    assert_eq!(f.pages[1].field().garbage(0), Cell::Empty);

    // Comments: carried, inherited, changed.
    let f = fumen::decode("v115@vhDAgWFAooMDEPBAAAAAPFA3XaDEEBAAAAAAAAPDAFrmAA").unwrap();
    let own: Vec<Option<&str>> = f.pages.iter().map(Page::comment).collect();
    assert_eq!(own, [Some("hello"), Some("world"), None, Some("!")]);
    let shown: Vec<Option<&str>> = (0..4).map(|i| f.comment_at(i)).collect();
    assert_eq!(
        shown,
        [Some("hello"), Some("world"), Some("world"), Some("!")]
    );

    // Quiz: the raw comment, and the pieces tetris-fumen reports.
    let f = fumen::decode("v115@vhGSSYXAFLDmClcJSAVDEHBEooRBMoAVBUtfBAXsBAAANrBmnBAAAAAA").unwrap();
    assert_eq!(f.pages[0].comment(), Some("#Q=[](L)TSJ"));
    let pieces: Vec<Option<Placement>> = f.pages.iter().map(Page::piece).collect();
    assert_eq!(
        pieces,
        [
            Some(place(Piece::L, Orientation::Spawn, 8, 0)),
            Some(place(Piece::S, Orientation::Spawn, 6, 0)),
            None,
            Some(place(Piece::T, Orientation::Right, 4, 1)),
            Some(place(Piece::J, Orientation::Reverse, 7, 2)),
            None,
            None,
        ]
    );
    // Lock after quiz: J spawn (8, 0), Z spawn (8, 1), O spawn (0, 0), stacked.
    let f = fumen::decode("v115@vhCWSYVAFLDmClcJSAVDEHBEooRBKoAVB6AAAAUoBTpB").unwrap();
    let pieces: Vec<Placement> = f.pages.iter().map(|p| p.piece().unwrap()).collect();
    assert_eq!(
        pieces,
        [
            place(Piece::J, Orientation::Spawn, 8, 0),
            place(Piece::Z, Orientation::Spawn, 8, 1),
            place(Piece::O, Orientation::Spawn, 0, 0),
        ]
    );
    assert_eq!(
        f.pages[2].locked_field().to_string(),
        ".......ZZ.\nOO.....JZZ\nOO.....JJJ"
    );
}

/// Fumen's location for I, O, S and Z: the orientations covering the same cells share
/// one, which for some of them is not the rotation centre. Each case: the piece's fumen
/// kind and the location it has in fumen, then for each fumen rotation (0 reverse,
/// 1 right, 2 spawn, 3 left) the orientation and rotation centre, worked out by hand
/// from the SRS shapes, and the cells all of them must cover.
#[test]
fn location_corrections() {
    use Orientation::*;
    type Case = (
        Piece,
        u32,
        u32,
        &'static [(u32, Orientation, (i32, i32))],
        [(u8, u8); 4],
    );
    let cases: [Case; 7] = [
        // A vertical I in the left column: fumen's location is I right's centre.
        (
            Piece::I,
            1,
            200,
            &[(1, Right, (0, 2)), (3, Left, (0, 1))],
            [(0, 0), (0, 1), (0, 2), (0, 3)],
        ),
        // A horizontal I at the left wall: I spawn's centre.
        (
            Piece::I,
            1,
            221,
            &[(2, Spawn, (1, 0)), (0, Reverse, (2, 0))],
            [(0, 0), (1, 0), (2, 0), (3, 0)],
        ),
        // An O in the corner: O right's centre, whatever the orientation.
        (
            Piece::O,
            3,
            210,
            &[
                (0, Reverse, (1, 1)),
                (1, Right, (0, 1)),
                (2, Spawn, (0, 0)),
                (3, Left, (1, 0)),
            ],
            [(0, 0), (1, 0), (0, 1), (1, 1)],
        ),
        // S flat: S reverse's centre; S upright: S left's centre.
        (
            Piece::S,
            7,
            211,
            &[(2, Spawn, (1, 0)), (0, Reverse, (1, 1))],
            [(0, 0), (1, 0), (1, 1), (2, 1)],
        ),
        (
            Piece::S,
            7,
            211,
            &[(1, Right, (0, 1)), (3, Left, (1, 1))],
            [(1, 0), (0, 1), (1, 1), (0, 2)],
        ),
        // Z flat: Z reverse's centre; Z upright: Z right's centre.
        (
            Piece::Z,
            4,
            211,
            &[(2, Spawn, (1, 0)), (0, Reverse, (1, 1))],
            [(1, 0), (2, 0), (0, 1), (1, 1)],
        ),
        (
            Piece::Z,
            4,
            210,
            &[(1, Right, (0, 1)), (3, Left, (1, 1))],
            [(0, 0), (0, 1), (1, 1), (1, 2)],
        ),
    ];
    for (piece, kind, location, orientations, cells) in cases {
        for &(rotation, orientation, (x, y)) in orientations {
            let text = one_page(kind, rotation, location);
            let f = fumen::decode(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            let p = f.pages[0].piece().unwrap();
            assert_eq!(p, place(piece, orientation, x, y), "{text}");
            assert_eq!(p.cells(), cells, "{text}");
            assert_eq!(
                fumen::encode(&Fumen::from_placements(&Board32::new(), &[p])),
                text
            );
        }
    }
    // J, L and T use the rotation centre: T right at (0, 1) is location 0 + 10 * 21.
    let f = fumen::decode(&one_page(5, 1, 210)).unwrap();
    assert_eq!(f.pages[0].piece(), Some(place(Piece::T, Right, 0, 1)));
}

/// A 4-line perfect clear exported page by page, each page's locked field drawn by hand:
///
/// ```text
/// SIIIIZXXXX   J spawn (1,0), L spawn (4,0): row 0 clears;
/// SSOOZZXXXX   then S right (0,1), Z left (5,1), O right (2,1): two rows clear;
/// JSOOZLXXXX   then I reverse (3,0): the last row clears.
/// JJJLLLXXXX
/// ```
#[test]
fn solution_pages() {
    use Orientation::*;
    let field = board("......####\n......####\n......####\n......####");
    let placements = [
        place(Piece::J, Spawn, 1, 0),
        place(Piece::L, Spawn, 4, 0),
        place(Piece::S, Right, 0, 1),
        place(Piece::Z, Left, 5, 1),
        place(Piece::O, Right, 2, 1),
        place(Piece::I, Reverse, 3, 0),
    ];
    let f = Fumen::from_placements(&field, &placements);
    let text = fumen::encode(&f);
    let back = fumen::decode(&text).unwrap();
    assert_eq!(back, f);
    assert_eq!(back.pages.len(), 6);

    let shown = [
        "......XXXX\n......XXXX\n......XXXX\n......XXXX",
        "......XXXX\n......XXXX\nJ.....XXXX\nJJJ...XXXX",
        "......XXXX\n......XXXX\nJ....LXXXX",
        "S.....XXXX\nSS....XXXX\nJS...LXXXX",
        "S....ZXXXX\nSS..ZZXXXX\nJS..ZLXXXX",
        "S....ZXXXX",
    ];
    let locked = [
        "......XXXX\n......XXXX\nJ.....XXXX\nJJJ...XXXX",
        "......XXXX\n......XXXX\nJ....LXXXX",
        "S.....XXXX\nSS....XXXX\nJS...LXXXX",
        "S....ZXXXX\nSS..ZZXXXX\nJS..ZLXXXX",
        "S....ZXXXX",
        "",
    ];
    for (i, page) in back.pages.iter().enumerate() {
        assert_eq!(page.field().to_string(), shown[i], "page {}", i + 1);
        assert_eq!(page.locked_field().to_string(), locked[i], "page {}", i + 1);
        assert_eq!(page.piece(), Some(placements[i]));
        assert!(page.lock());
        assert_eq!(page.colour(), i == 0);
        assert_eq!(page.comment(), None);
    }
    assert_eq!(
        back.first_field().unwrap(),
        board(&locked[0].replace(['J', 'X'], "#"))
    );
    // Pages after the first change nothing but the piece: repeat counts fold them.
    // Page 1: the field and an action; page 2: "no change" with repeat count 4 ("vhE"),
    // and an action; pages 3 to 6: an action each.
    assert_eq!(text.matches("vh").count(), 1, "{text}");
    assert_eq!(text.len(), 5 + 18 + 3 + 3 + 5 * 3, "{text}");
    // A field alone is one page.
    let alone = Fumen::from_placements(&field, &[]);
    assert_eq!(alone.pages.len(), 1);
    assert_eq!(fumen::decode(&fumen::encode(&alone)).unwrap(), alone);
    assert_eq!(alone.first_field(), Some(field));
}

#[test]
fn long_runs_of_unchanged_pages() {
    // 150 pages with no piece: the repeat count (one digit, at most 63) restarts twice.
    let pages = vec![Page::new(ColoredField::new()); 150];
    let f = Fumen::new(pages);
    let text = fumen::encode(&f);
    assert_eq!(fumen::decode(&text).unwrap(), f);
    assert_eq!(text.matches("vh").count(), 3, "{text}");
}

#[test]
fn errors_say_what_and_where() {
    assert_eq!(fumen::decode("hello"), Err(FumenError::MissingPrefix));
    assert_eq!(
        fumen::decode("v110@7eAA4G"),
        Err(FumenError::UnsupportedVersion {
            version: "110".into()
        })
    );
    assert_eq!(fumen::decode("v115@"), Err(FumenError::NoPages));
    let e = fumen::decode("v115@vhA=gH").unwrap_err();
    assert_eq!(
        e,
        FumenError::InvalidChar {
            position: 8,
            found: '='
        }
    );
    assert_eq!(e.to_string(), "invalid character '=' at position 8");
    assert_eq!(
        fumen::decode("v115@vhAAg"),
        Err(FumenError::Truncated {
            page: 1,
            part: "action"
        })
    );
    assert_eq!(
        fumen::decode("v115@vh"),
        Err(FumenError::Truncated {
            page: 1,
            part: "repeat count"
        })
    );
    assert_eq!(
        fumen::decode("v115@vhAAgHA"),
        Err(FumenError::Truncated {
            page: 2,
            part: "field"
        })
    );
    // tetris-fumen's "illegal short fumen".
    assert!(matches!(
        fumen::decode("v115@vhAyO"),
        Err(FumenError::Truncated { page: 1, .. })
    ));
    // A run of 200 then a run of 100 (no change: 8 * 240 + 199 = "Hh", 8 * 240 + 99 = "jf").
    assert_eq!(
        fumen::decode("v115@HhjfAgH"),
        Err(FumenError::FieldOverflow {
            page: 1,
            cells: 300
        })
    );
    // Change -1 on an empty cell, a run of 1: 7 * 240 + 0 = 1680 = "Qa".
    let e = fumen::decode("v115@QaAgH").unwrap_err();
    assert_eq!(
        e,
        FumenError::BadCell {
            page: 1,
            x: 0,
            y: 22,
            value: -1
        }
    );
    // Action value with a flag bit above lock: 32 * 240 * 32 = 245,760 = digits 0, 0, 60.
    assert_eq!(
        fumen::decode("v115@vhAAA8"),
        Err(FumenError::BadAction {
            page: 1,
            value: 245_760
        })
    );
    // I spawn at location 220 (x = 0, y = 0): a cell left of the wall.
    assert!(matches!(
        fumen::decode(&one_page(1, 2, 220)),
        Err(FumenError::BadLocation {
            page: 1,
            piece: Piece::I,
            x: 0,
            y: 0,
            ..
        })
    ));
    // Comment "%" alone: action "AgW" (colour and comment flags), length 1 ("BA"), then
    // code 5 ('%' - 32) as 5 digits.
    let e = fumen::decode("v115@vhAAgWBAFAAAA").unwrap_err();
    assert!(
        matches!(
            e,
            FumenError::BadComment {
                page: 1,
                position: 0,
                ..
            }
        ),
        "{e}"
    );
    // A piece above row 22 cannot go on a page.
    let mut page = Page::new(ColoredField::new());
    let high = place(Piece::I, Orientation::Right, 4, 22);
    assert_eq!(
        page.set_piece(Some(high)),
        Err(FumenError::PieceAboveField { placement: high })
    );
}

#[test]
fn comments_round_trip() {
    let mut page = Page::new("XXXX......".parse().unwrap());
    for text in ["4 -p *p7", "#Q=[](L)TSJ", "ほｗｙ 😀 100% é", ""] {
        page.set_comment(Some(text.to_string()));
        let f = Fumen::new(vec![page.clone()]);
        assert_eq!(fumen::decode(&fumen::encode(&f)).unwrap(), f, "{text}");
    }
    // Over-long comments are cut at a character boundary to 4095 escaped characters.
    page.set_comment(Some("é".repeat(2000)));
    let f = fumen::decode(&fumen::encode(&Fumen::new(vec![page]))).unwrap();
    assert_eq!(f.pages[0].comment(), Some("é".repeat(1365).as_str()));
}

// ---- Fuzzing ----------------------------------------------------------------------

fn arb_cell() -> impl Strategy<Value = Cell> {
    (0u8..9).prop_map(|id| Cell::from_fumen_id(id).unwrap())
}

fn arb_field() -> impl Strategy<Value = ColoredField> {
    // Mostly empty, low fields, as real ones are; sometimes garbage-row cells.
    (
        prop::collection::vec(
            (
                0usize..10,
                prop_oneof![8 => 0u32..6, 1 => 0u32..23],
                arb_cell(),
            ),
            0..60,
        ),
        prop::collection::vec((0usize..10, arb_cell()), 0..4),
    )
        .prop_map(|(cells, garbage)| {
            let mut f = ColoredField::new();
            for (x, y, c) in cells {
                f.set_cell(x, y, c);
            }
            for (x, c) in garbage {
                f.set_garbage(x, c);
            }
            f
        })
}

fn arb_placement() -> impl Strategy<Value = Option<Placement>> {
    (0usize..8, 0usize..4, -1i32..11, -1i32..24).prop_map(|(p, o, x, y)| {
        let piece = Piece::from_index(p)?;
        piece
            .with(Orientation::from_index(o))
            .at(x, y)
            .ok()
            .filter(|pl| pl.rows().1 < 23)
    })
}

#[derive(Debug, Clone)]
struct PageSpec {
    field: Option<ColoredField>,
    piece: Option<Placement>,
    flags: [bool; 4],
    comment: Option<String>,
}

fn arb_page() -> impl Strategy<Value = PageSpec> {
    (
        prop::option::weighted(0.4, arb_field()),
        arb_placement(),
        prop::array::uniform4(prop::bool::weighted(0.3)),
        prop::option::weighted(0.3, "\\PC{0,20}"),
    )
        .prop_map(|(field, piece, flags, comment)| PageSpec {
            field,
            piece,
            flags,
            comment,
        })
}

/// Pages as an editor makes them: a page without its own field starts from the
/// previous page's next field (so runs of unchanged fields occur).
fn build(specs: Vec<PageSpec>) -> Fumen {
    let mut pages: Vec<Page> = Vec::new();
    for s in specs {
        let start = pages.last().map(Page::next_field).unwrap_or_default();
        let mut page = Page::new(s.field.unwrap_or(start));
        page.set_piece(s.piece).unwrap();
        page.set_lock(!s.flags[0]);
        page.set_rise(s.flags[1]);
        page.set_mirror(s.flags[2]);
        page.set_colour(s.flags[3]);
        page.set_comment(s.comment);
        pages.push(page);
    }
    Fumen::new(pages)
}

fn arb_fumen() -> impl Strategy<Value = Fumen> {
    prop::collection::vec(arb_page(), 1..8).prop_map(build)
}

/// Some valid strings to mutate: sfinder's fields, solutions, comments.
fn seeds() -> Vec<String> {
    let mut out: Vec<String> = percent_fumens()
        .into_iter()
        .step_by(200)
        .map(|(t, _)| t)
        .collect();
    out.push("v115@vhGSSYXAFLDmClcJSAVDEHBEooRBMoAVBUtfBAXsBAAANrBmnBAAAAAA".into());
    out.push("v115@RhA8IeB8HeC8GeAYJvhAAAA".into());
    out.push(fumen::encode(&Fumen::from_placements(
        &board("......####\n......####"),
        &[
            place(Piece::O, Orientation::Left, 1, 0),
            place(Piece::I, Orientation::Right, 2, 2),
        ],
    )));
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn round_trip(f in arb_fumen()) {
        let text = fumen::encode(&f);
        prop_assert!(text.starts_with("v115@"));
        prop_assert_eq!(fumen::decode(&text), Ok(f));
    }

    #[test]
    fn any_string_never_panics(s in "\\PC{0,64}") {
        let _ = fumen::decode(&s);
    }

    #[test]
    fn any_data_never_panics(s in "[A-Za-z0-9+/?]{0,300}") {
        if let Ok(f) = fumen::decode(&format!("v115@{s}")) {
            prop_assert_eq!(fumen::decode(&fumen::encode(&f)), Ok(f));
        }
    }

    #[test]
    fn mutated_strings_never_panic(
        seed in prop::sample::select(seeds()),
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..64), 1..4),
        cut in any::<prop::sample::Index>(),
        truncate in any::<bool>(),
    ) {
        let mut bytes = seed.into_bytes();
        for (at, digit) in edits {
            let i = 5 + at.index(bytes.len() - 5);
            bytes[i] = ALPHABET[digit as usize];
        }
        if truncate {
            bytes.truncate(5 + cut.index(bytes.len() - 4));
        }
        let text = String::from_utf8(bytes).unwrap();
        if let Ok(f) = fumen::decode(&text) {
            prop_assert_eq!(fumen::decode(&fumen::encode(&f)), Ok(f));
        }
    }
}

/// Every 25th field of sfinder's percent tables, and the other seeds, behind each prefix
/// and wrapper a user may paste.
fn wrapped_seeds() -> Vec<String> {
    let mut out: Vec<String> = percent_fumens()
        .into_iter()
        .step_by(25)
        .map(|(t, _)| t)
        .chain(seeds())
        .collect();
    let data: Vec<String> = out.iter().map(|s| s[5..].to_string()).collect();
    for (i, d) in data.iter().enumerate() {
        out.push(match i % 5 {
            0 => format!("m115@{d}"),
            1 => format!("d115@{d}"),
            2 => format!("https://fumen.zui.jp/?v115@{d}"),
            3 => format!("https://knewjade.github.io/fumen-for-mobile/?d=v115@{d}&x=1"),
            _ => format!("v115@{}?{}", &d[..d.len() / 2], &d[d.len() / 2..]),
        });
    }
    out
}

/// An edit for [`edited`]: mostly digits of the alphabet and the characters around the
/// data, now and then any character.
fn any_edit() -> impl Strategy<Value = (u8, prop::sample::Index, char)> {
    let ch = prop_oneof![
        6 => (0usize..64).prop_map(|i| ALPHABET[i] as char),
        2 => prop::sample::select(vec!['?', '@', ' ', '\n', '&', '=', '%', 'v', '1', '5']),
        1 => any::<char>(),
    ];
    (0u8..3, any::<prop::sample::Index>(), ch)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    /// Valid fumens behind any prefix, with characters replaced, inserted (any character,
    /// `?` breaks, the prefix's own) or deleted anywhere, prefix included: a fumen or a
    /// typed error, and what decodes encodes and decodes to itself.
    #[test]
    fn edited_strings_never_panic(
        seed in prop::sample::select(wrapped_seeds()),
        edits in prop::collection::vec(any_edit(), 1..6),
    ) {
        let text = edited(&seed, &edits);
        match fumen::decode(&text) {
            Ok(f) => {
                prop_assert!(!f.pages.is_empty());
                prop_assert_eq!(fumen::decode(&fumen::encode(&f)), Ok(f));
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}
