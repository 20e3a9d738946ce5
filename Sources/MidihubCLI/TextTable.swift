/// Rows of cells in columns as wide as their widest cell, two spaces apart, trailing spaces
/// cut: the tables of `midihub ports` and `midihub plugins`.
/// - Thread: any (a plain value).
struct TextTable {
    /// Each column's width.
    let widths: [Int]

    /// Fits the columns to `header` and `rows`.
    init(header: [String], rows: [[String]]) {
        widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
    }

    /// `cells` padded to the columns.
    func line(_ cells: [String]) -> String {
        zip(cells, widths).map { $0.padding(to: $1) }.joined(separator: "  ").trailingSpacesRemoved
    }
}
