import Foundation
import LensFace
import XCTest

/// The cascade reader on Debian's file and on hostile variants: each defect is a CascadeError
/// that says what is wrong.
final class CascadeReaderTests: XCTestCase {
    func testDebiansFrontalFaceCascade() throws {
        let cascade = try LBPCascade(contentsOf: LBPCascade.defaultPath)
        XCTAssertEqual(cascade.windowWidth, 24)
        XCTAssertEqual(cascade.windowHeight, 24)
        XCTAssertEqual(cascade.shape.stages, 20)
        XCTAssertEqual(cascade.shape.stumps, 139)
        XCTAssertEqual(cascade.shape.features, 136)
    }

    func testASmallValidCascade() throws {
        let cascade = try LBPCascade(xml: Array(Self.cascade().utf8))
        XCTAssertEqual(cascade.shape.stages, 1)
        XCTAssertEqual(cascade.shape.stumps, 1)
        XCTAssertEqual(cascade.shape.features, 1)
    }

    func testDefectsAreNamed() {
        let cases: [(String, String)] = [
            ("", "no root element"),
            ("<opencv_storage><cascade>", "is not closed"),
            ("<!DOCTYPE x [<!ENTITY a 'b'>]><opencv_storage/>", "DOCTYPE, CDATA and other declarations are not supported"),
            (Self.cascade(featureType: "HAAR"), "featureType HAAR is not supported (only LBP)"),
            (Self.cascade(rect: "20 0 3 3"), "leaves the 24×24 window"),
            (Self.cascade(rect: "0 0 0 3"), "leaves the 24×24 window"),
            (Self.cascade(rect: "0 0 3"), "<rect> needs 4 numbers, has 3"),
            (Self.cascade(nodes: "0 -1 1 0 0 0 0 0 0 0 0"), "feature 1 does not exist (1 features)"),
            (Self.cascade(nodes: "0 -1 0 0 0 0 0 0 0 0 0 1 2 3"), "only single-node trees (stumps) are supported"),
            (Self.cascade(nodes: "0 -1 0 4294967296 0 0 0 0 0 0 0"), "is not a 32-bit integer"),
            (Self.cascade(nodes: "0 -1 0 x 0 0 0 0 0 0 0"), "'x' is not an integer"),
            (Self.cascade(leaves: "1 nan"), "'nan' is not a finite number"),
            (Self.cascade(leaves: "1"), "<leafValues> needs 2 numbers, has 1"),
            (Self.cascade(threshold: "&amp;"), "entity references are not supported"),
            (Self.cascade(width: "1000"), "<width> must be one integer in 1...64"),
            (Self.cascade().replacingOccurrences(of: "</stages>", with: "</stagez>"), "</stagez> closes <stages>"),
            (Self.cascade().replacingOccurrences(of: "<maxCatCount>256", with: "<maxCatCount>0"), "maxCatCount must be 256"),
            (String(repeating: "<a>", count: 40), "elements nested deeper than 16"),
            ("<opencv_storage " + String(repeating: "a", count: 100) + "='1'/>", "a name longer than 64 bytes"),
            (Self.cascade(threshold: "-0.5" + String(repeating: "0", count: 60)), "a number longer than 40 characters"),
        ]
        for (xml, expected) in cases {
            XCTAssertThrowsError(try LBPCascade(xml: Array(xml.utf8)), expected) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error) should say: \(expected)")
            }
        }
    }

    func testOversizedAndMissingFilesAreRefused() throws {
        XCTAssertThrowsError(try LBPCascade(xml: [UInt8](repeating: 0x20, count: 5 << 20))) {
            XCTAssertTrue("\($0)".contains("a cascade may have at most"), "\($0)")
        }
        XCTAssertThrowsError(try LBPCascade(contentsOf: "/nonexistent/cascade.xml")) {
            XCTAssertEqual("\($0)", "/nonexistent/cascade.xml: no such file")
        }
    }

    /// A one-stage, one-stump, one-feature cascade with parts replaceable.
    static func cascade(featureType: String = "LBP", width: String = "24", threshold: String = "-0.5",
                        nodes: String = "0 -1 0 -1 -1 -1 -1 -1 -1 -1 -1", leaves: String = "-1 1", rect: String = "0 0 8 8") -> String {
        """
        <?xml version="1.0"?>\r
        <!-- a comment -->\r
        <opencv_storage>\r
        <cascade type_id="opencv-cascade-classifier"><stageType>BOOST</stageType>\r
          <featureType>\(featureType)</featureType><height>24</height><width>\(width)</width>\r
          <featureParams><maxCatCount>256</maxCatCount></featureParams>\r
          <stages><_><stageThreshold>\(threshold)</stageThreshold><weakClassifiers>\r
            <_><internalNodes>\(nodes)</internalNodes><leafValues>\(leaves)</leafValues></_>\r
          </weakClassifiers></_></stages>\r
          <features><_><rect>\(rect)</rect></_></features></cascade>\r
        </opencv_storage>\r

        """
    }
}
