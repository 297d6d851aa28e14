// SPDX-License-Identifier: MIT
#pragma once
// The comparison's status strip above the timeline, shown while two replays are compared: which
// file, whether it is compared through A's schema or by name, the B frame paired with the
// playhead (or that it is loading), the alignment (frame / game time), offset and float
// tolerance (editable, remembered), the lane's progress with a cancel button, and Close.

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QToolButton;

namespace vtxw {

class CompareSession;

class CompareBar : public QWidget {
    Q_OBJECT
public:
    explicit CompareBar(CompareSession* compare, QWidget* parent = nullptr);

    QLabel* fileLabel() const { return m_file; }
    QLabel* frameLabel() const { return m_frame; }
    QLabel* laneLabel() const { return m_lane; }
    QComboBox* alignmentBox() const { return m_alignment; }
    QDoubleSpinBox* offsetBox() const { return m_offset; }
    QLineEdit* epsilonField() const { return m_epsilon; }

signals:
    void closeRequested();

private:
    void showOptions();
    void applyOptions();
    void updateFrame();
    void updateLane();

    CompareSession* m_compare;
    QLabel* m_file;
    QLabel* m_frame;
    QLabel* m_lane;
    QComboBox* m_alignment;
    QDoubleSpinBox* m_offset;
    QLineEdit* m_epsilon;
    QToolButton* m_cancelLane;
    bool m_updating = false;
};

} // namespace vtxw
