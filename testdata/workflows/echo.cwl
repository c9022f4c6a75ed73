# A one-step CWL tool: echo its message into greeting.txt.
cwlVersion: v1.2
class: CommandLineTool
baseCommand: echo
stdout: greeting.txt
inputs:
  message:
    type: string
    inputBinding:
      position: 1
outputs:
  greeting:
    type: stdout
