// The pairwise grid: a row per producer and a column per consumer over the
// same sorted libraries, each cell counting the tensors that worked, were
// declined and failed, and a failure a defect of the library whose fault
// it is (none where nobody's is known).
#include <gtest/gtest.h>

#include "compat/formats/pair_grid_text.hpp"
#include "compat/pair_grid.hpp"

namespace dlpack_usm::compat {
namespace {

PairCase handed(std::string producer, std::string consumer, std::string result,
                std::string fault = "") {
  PairCase one;
  one.producer = std::move(producer);
  one.consumer = std::move(consumer);
  one.tensor = "c-order";
  one.result = std::move(result);
  one.fault = std::move(fault);
  one.rule = one.result == "fails" ? "DLP-CONSUMER-CHECKSUM" : "";
  one.note = "note";
  one.repro = "dlpack-usm check --python-handoff a b";
  return one;
}

TEST(PairGrid, CountsEachPairAndChargesEachDefect) {
  PairGrid grid = build_pair_grid(
      {handed("numpy", "dpnp", "works"), handed("numpy", "dpnp", "declines"),
       handed("dpnp", "numpy", "declines"), handed("dpnp", "dpnp", "fails", "consumer"),
       handed("numpy", "numpy", "fails", "")});
  ASSERT_EQ(grid.libraries, (std::vector<std::string>{"dpnp", "numpy"}));
  const PairCell& numpy_to_dpnp = grid.cells[1][0];
  EXPECT_EQ(numpy_to_dpnp.kind(), "mixed");
  EXPECT_EQ(numpy_to_dpnp.text(), "1 work, 1 declined");
  EXPECT_EQ(grid.cells[0][1].kind(), "declines");
  EXPECT_EQ(grid.cells[0][1].text(), "1/1 declined");
  EXPECT_EQ(grid.cells[0][0].kind(), "fails");
  EXPECT_EQ(grid.cells[0][0].text(), "1 of 1 fails");
  // dpnp's own failure is its defect; numpy's with no known fault is none.
  EXPECT_EQ(grid.summaries[0].defects, (std::vector<std::size_t>{3}));
  EXPECT_TRUE(grid.summaries[1].defects.empty());
  EXPECT_EQ(grid.summaries[1].as_producer.total(), 3u);
  EXPECT_EQ(grid.summaries[1].as_consumer.total(), 2u);
  EXPECT_EQ(PairGrid::anchor(1, 0), "pair-1-0");
}

TEST(PairGrid, TheLibraryLineNamesItsDefectsWithTheirRepro) {
  PairGrid grid = build_pair_grid({handed("dpnp", "dpnp", "fails", "consumer")});
  EXPECT_EQ(pair_library_line(grid.summaries[0]),
            "as producer 1 of 1 fails; as consumer 1 of 1 fails; 1 defect found");
  EXPECT_EQ(pair_defect_text(grid.cases[0]),
            "DLP-CONSUMER-CHECKSUM: note (dpnp to dpnp, c-order); repro: dlpack-usm check "
            "--python-handoff a b");
  std::string text = pair_grid_text(grid, 0);
  EXPECT_NE(text.find("producer \\ consumer"), std::string::npos) << text;
  EXPECT_NE(text.find("    - DLP-CONSUMER-CHECKSUM"), std::string::npos) << text;
  EXPECT_TRUE(pair_grid_text(build_pair_grid({}), 0).empty());
}

TEST(PairGrid, TheTextFitsItsWidthAndKeepsEachReproWhole) {
  // Too many libraries for the width: a record per producer, no cell cut;
  // a defect's repro on a line of its own, whole, since it is pasted.
  PairGrid grid =
      build_pair_grid({handed("numpy 2.4.6 (ci)", "dpnp 0.20.0 (ci)", "works"),
                       handed("dpnp 0.20.0 (ci)", "torch 2.11.0 (gpu)", "fails", "consumer")});
  std::string text = pair_grid_text(grid, 40);
  EXPECT_NE(text.find("\n      repro: dlpack-usm check --python-handoff a b\n"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("…"), std::string::npos) << text;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
    std::string line = text.substr(start, end - start);
    if (line.find("repro: ") == std::string::npos) {
      EXPECT_LE(line.size(), 40u) << line;
    }
  }
}

TEST(PairGrid, EachLibrarySaysTheDaysItWasMeasured) {
  // Two runs (two machines or two days): a library in both names both days,
  // once each; one in a run without a date names none.
  PairCase first = handed("numpy", "dpnp", "works");
  first.measured = "2026-11-29";
  PairCase second = handed("numpy", "torch", "works");
  second.measured = "2026-11-27";
  PairCase again = handed("torch", "numpy", "works");
  again.measured = "2026-11-27";
  PairGrid grid = build_pair_grid({first, second, again, handed("jax", "jax", "works")});
  ASSERT_EQ(grid.libraries, (std::vector<std::string>{"dpnp", "jax", "numpy", "torch"}));
  EXPECT_EQ(grid.summaries[2].measured, (std::vector<std::string>{"2026-11-27", "2026-11-29"}));
  EXPECT_EQ(grid.summaries[3].measured, (std::vector<std::string>{"2026-11-27"}));
  EXPECT_TRUE(grid.summaries[1].measured.empty());
  EXPECT_EQ(pair_library_line(grid.summaries[0]),
            "hands nothing over (no producer here); as consumer 1/1 work; no defect found; "
            "measured 2026-11-29");
}

}  // namespace
}  // namespace dlpack_usm::compat
