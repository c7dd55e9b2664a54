#include "commands/sweep_output.hpp"

#include "commands/sweep_hdf5.hpp"

namespace clatter::cli {

SweepOutput::SweepOutput(SweepTable table, const SweepFiles& files, OutputSet& out) : out_(out) {
  app::SweepStreams streams;
  streams.data = &out_.open(files.data);
  streams.summary = &out_.open(files.summary);
  if (!files.timings.empty()) streams.timings = &out_.open(files.timings, "--timings");
  if (!files.hdf5.empty()) hdf5_ = std::make_unique<SweepHdf5>(out_.temporary(files.hdf5), table);
  streams.json = &out_.open(files.json);
  const app::SweepPaths paths{files.data, files.summary, files.hdf5, files.plot};
  SweepHdf5* hdf5 = hdf5_.get();
  writer_ = std::make_unique<app::SweepWriter>(std::move(table), paths, streams,
                                               [hdf5](const analysis::SweepRecord& r) {
                                                 if (hdf5 != nullptr) hdf5->add(r);
                                               });
}

SweepOutput::~SweepOutput() = default;

void SweepOutput::finish() {
  writer_->finish();
  if (hdf5_) hdf5_->finish();
  hdf5_.reset();
  out_.close();
}

}  // namespace clatter::cli
